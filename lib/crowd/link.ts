/**
 * Crowd links (Potato's Prolific and MTurk entry): the participant id a platform puts into the
 * study's URL. Prolific sends PROLIFIC_PID, STUDY_ID and SESSION_ID; MTurk workerId,
 * assignmentId and hitId (assignmentId ASSIGNMENT_ID_NOT_AVAILABLE while a worker only previews
 * the HIT); any other platform a generic `pid`. Only the participant id is kept.
 */
export type CrowdPlatform = "prolific" | "mturk" | "generic";

export interface LinkParticipant {
  platform: CrowdPlatform;
  id: string;
}

/** The ids platforms give: letters, digits, dashes and underscores (Prolific's are 24 hex digits, MTurk's upper-case letters and digits). */
const PARTICIPANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const MTURK_PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE";

/** The participant a link names, or why it names none. */
export function participantOfLink(query: URLSearchParams): LinkParticipant | { error: string } {
  const given: [CrowdPlatform, string][] = [
    ["prolific", "PROLIFIC_PID"],
    ["mturk", "workerId"],
    ["generic", "pid"],
  ];
  const found = given.filter(([, name]) => query.has(name));
  if (found.length === 0) return { error: "The link names no participant: it needs PROLIFIC_PID, workerId or pid." };
  if (found.length > 1) return { error: `The link names more than one participant (${found.map(([, name]) => name).join(", ")}).` };
  const [platform, name] = found[0];
  if (platform === "mturk" && query.get("assignmentId") === MTURK_PREVIEW) return { error: "Accept the HIT first: a preview takes no part in the study." };
  const id = query.get(name)!.trim();
  if (!PARTICIPANT_ID.test(id)) return { error: `${name} must be 1 to 64 letters, digits, dashes or underscores.` };
  return { platform, id };
}

/** The name leads see for a participant: the platform and its id. */
export const participantName = (p: LinkParticipant) => `${p.platform} ${p.id}`;

/** Whether a participant is done: every assignment of their quota submitted. */
export const quotaDone = (assignments: readonly { status: string }[], quota: number) => assignments.length >= quota && assignments.every((a) => a.status === "DONE");

/** When a participant's open items go back to the pool: their last activity plus the study's release time. */
export const releaseAt = (lastActivity: Date, releaseMinutes: number) => new Date(lastActivity.getTime() + releaseMinutes * 60_000);
