export { countClaimCodes, type ClaimCodeCounts } from "./codes";
export { claimQualityRates, type ClaimQualityRates } from "./rates";
export { claimVerdict, VERDICT_POLICY, type ClaimJudgementView, type ClaimVerdictInput, type VerdictSource } from "./verdict";
export { claimNumbers, referenceLabels, type NumberedReference } from "./numbering";
