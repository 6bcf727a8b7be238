import { describe, expect, test } from "vitest";
import { participantOfLink, quotaDone, releaseAt } from "@/lib/crowd/link";

const link = (query: string) => participantOfLink(new URLSearchParams(query));

describe("the participant a crowd link names", () => {
  test("Prolific's, MTurk's and a generic id; only the participant id is kept", () => {
    expect(link("PROLIFIC_PID=5f1a2b3c4d5e6f7a8b9c0d1e&STUDY_ID=s1&SESSION_ID=x9")).toEqual({ platform: "prolific", id: "5f1a2b3c4d5e6f7a8b9c0d1e" });
    expect(link("workerId=A2B3C4D5E6&assignmentId=3XYZ&hitId=H1")).toEqual({ platform: "mturk", id: "A2B3C4D5E6" });
    expect(link("pid=panel-42")).toEqual({ platform: "generic", id: "panel-42" });
  });
  test("no id, two ids, an MTurk preview and an id off the pattern are refused with why", () => {
    expect(link("STUDY_ID=s1")).toEqual({ error: expect.stringContaining("names no participant") });
    expect(link("pid=a&workerId=b")).toEqual({ error: expect.stringContaining("more than one participant (workerId, pid)") });
    expect(link("workerId=A1&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE")).toEqual({ error: expect.stringContaining("Accept the HIT first") });
    expect(link("pid=a%20b")).toEqual({ error: "pid must be 1 to 64 letters, digits, dashes or underscores." });
    expect(link(`pid=${"x".repeat(65)}`)).toHaveProperty("error");
    expect(link("PROLIFIC_PID=")).toHaveProperty("error");
  });
});

describe("quota and release", () => {
  test("done once every assignment of the quota is submitted", () => {
    expect(quotaDone([{ status: "DONE" }, { status: "DONE" }], 2)).toBe(true);
    expect(quotaDone([{ status: "DONE" }, { status: "IN_PROGRESS" }], 2)).toBe(false);
    expect(quotaDone([{ status: "DONE" }], 2)).toBe(false);
  });
  test("an idle participant's items go back at their last activity plus the release time", () => {
    expect(releaseAt(new Date("2026-01-01T10:00:00Z"), 30)).toEqual(new Date("2026-01-01T10:30:00Z"));
  });
});
