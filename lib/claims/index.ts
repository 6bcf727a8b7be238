export { CLAIM_CODES, countClaimCodes, type ClaimCode, type ClaimCodeCounts } from "./codes";
export { claimQualityRates, type ClaimQualityRates } from "./rates";
