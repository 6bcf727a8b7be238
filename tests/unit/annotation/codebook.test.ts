/** The codebooks are the one list of claim codes and error types: the value schemas and the data model's enums take theirs from them. */
import { describe, expect, test } from "vitest";
import { ClaimCode, ClaimErrorType } from "@/lib/generated/prisma/enums";
import { CLAIM_CODE_INFO, ERROR_TYPE_INFO } from "@/lib/annotation/codebook";
import { emptyClaimJudgement } from "@/lib/annotation/values";
import { claimJudgementValue } from "@/lib/annotation/value-schemas";

describe("claim codes and error types", () => {
  test("the codebooks list every value of the data model's enums, once", () => {
    expect(CLAIM_CODE_INFO.map((c) => c.code).sort()).toEqual(Object.values(ClaimCode).sort());
    expect(ERROR_TYPE_INFO.map((t) => t.type).sort()).toEqual(Object.values(ClaimErrorType).sort());
    expect(new Set(ERROR_TYPE_INFO.map((t) => t.key)).size).toBe(ERROR_TYPE_INFO.length);
  });

  test("a judgement's value takes exactly the codebooks' codes and error types", () => {
    for (const { type } of ERROR_TYPE_INFO) expect(claimJudgementValue.safeParse({ ...emptyClaimJudgement(), errorType: type }).success).toBe(true);
    for (const { code } of CLAIM_CODE_INFO) expect(claimJudgementValue.safeParse({ ...emptyClaimJudgement(), code }).success).toBe(true);
    expect(claimJudgementValue.safeParse({ ...emptyClaimJudgement(), errorType: "CONTEXT" }).success).toBe(false);
    expect(claimJudgementValue.safeParse({ ...emptyClaimJudgement(), code: "MAYBE" }).success).toBe(false);
  });
});
