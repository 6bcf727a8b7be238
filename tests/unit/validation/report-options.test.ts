import { describe, expect, it } from "vitest";
import { CliError, fieldFlag, parseArgs } from "@/lib/cli/args";
import { agreementPageQuerySchema, agreementQuerySchema, windowSizeField, bootstrapOption, validityPageQuerySchema, validityQuerySchema, taskField } from "@/lib/validation/report-options";

describe("report options", () => {
  it("reads a task in either spelling and refuses an unknown one", () => {
    expect(taskField.parse("REVIEW_RATING")).toBe("REVIEW_RATING");
    expect(taskField.parse(" claim-verification ")).toBe("CLAIM_VERIFICATION");
    expect(taskField.safeParse("rating").success).toBe(false);
  });

  it("parses the agreement route's query and refuses a bad value", () => {
    expect(agreementQuerySchema.parse({ task: "REVIEW_RATING", windowSize: "50", resamples: "0", seed: "7", gold: "include", itemSet: "pilot" })).toEqual({ task: "REVIEW_RATING", windowSize: 50, resamples: 0, seed: 7, gold: "include", itemSet: "pilot" });
    for (const bad of [{ windowSize: "0" }, { windowSize: "100001" }, { resamples: "100001" }, { resamples: "1.5" }, { seed: "-1" }, { drafts: "yes" }, { itemSet: "" }])
      expect(agreementQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it("leaves a bad value out of the dashboards' queries instead of refusing the page", () => {
    expect(agreementPageQuerySchema.parse({ task: "NOPE", windowSize: "x", gold: "include", drafts: "maybe", set: "" })).toEqual({ gold: "include" });
    expect(validityPageQuerySchema.parse({ metric: ["bleu", "crscore"], level: "everything", includeReferences: "on", drafts: "include" })).toEqual({ metric: "bleu", includeReferences: true, drafts: true });
  });

  it("requires the validity route's metric and human question", () => {
    expect(validityQuerySchema.safeParse({ metric: "bleu" }).success).toBe(false);
    expect(validityQuerySchema.parse({ metric: "bleu", human: "relevance", level: "system", includeReferences: "1" })).toEqual({ metric: "bleu", human: "relevance", level: "system", includeReferences: "1" });
  });

  it("gives the bootstrap option only for what was asked", () => {
    expect(bootstrapOption({})).toEqual({});
    expect(bootstrapOption({ resamples: 0 })).toEqual({ bootstrap: { nResamples: 0 } });
    expect(bootstrapOption({ resamples: 10, seed: 3 })).toEqual({ bootstrap: { nResamples: 10, seed: 3 } });
  });

  it("parses a CLI flag with the same field and names the flag when refusing", () => {
    const args = parseArgs(["--window-size", "25", "--seed", "0"]);
    expect(fieldFlag(args, "window-size", windowSizeField)).toBe(25);
    expect(fieldFlag(args, "resamples", windowSizeField)).toBeUndefined();
    const bad = () => fieldFlag(parseArgs(["--window-size", "0"]), "window-size", windowSizeField);
    expect(bad).toThrow(CliError);
    expect(bad).toThrow(/^--window-size: .*; got "0"$/);
  });
});
