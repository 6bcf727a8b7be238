/**
 * The demo study's codebook. Paraphrases, not quotations, of: CRScore (Naik et al.) Appendix
 * D.1 and Table 8 (claim accuracy codes, plus the -2 "incomplete" code of its annotation
 * sheets), Table 12 (error types), Appendix D.2 and Table 7 (Likert rules of thumb and claim
 * linking); GradedReviews section 4.3 (1-5 grading against the reference review); c-CRAB
 * section 4.2.1 (review comment filtering).
 */
export const DEMO_GUIDELINES = `# Codebook: judging code review quality

Every item is one code change: a unified diff, with the complete file before and after the change.
Open the files whenever the diff alone is not enough to decide. The study has four tasks; your queue
tells you which one an item is for. Do stage 1 (claims) of an item before stage 2 (rating).

## 1. Claim verification (stage 1)

You see statements about the change that were generated automatically:

- **claims** say *what* changed ("the function now returns an Optional");
- **implications** say what the change *means*: effects, risks, the likely intent of the author.

Static-analysis findings (smells) are shown for context only. They come from rule-based tools and
are taken as correct, so you do not code them.

### Accuracy codes

| Code | Name | Use it when |
|---:|---|---|
| 1 | Correct | You found concrete evidence that confirms the statement: in the diff, in the old or new file, or in documentation of the language or library. |
| 0 | Incorrect | You found concrete evidence that contradicts it. |
| -1 | Unverifiable | After looking at the diff, both files and the documentation you still cannot confirm or refute it, e.g. a guess about performance with nothing to measure. |
| 2 | Ambiguous | It can be read in several ways, so it is unclear what should be checked ("now only accepts valid input": valid how?). Rare; ambiguous claims are left out of the accuracy rates. |
| -2 | Incomplete | The generated text is cut off or does not form a full statement. |

Examples of the reasoning expected:

- "Callers passing the old keyword argument will now fail": **correct** if the parameter was renamed
  and no alias was kept.
- "The change modifies the parameters of the function \`Encoder\`": **incorrect** if \`Encoder\` is a class.
- "The change may make the code slower": **unverifiable** unless the change clearly does more work.

### Error type (for code 0)

When a statement is incorrect, say what went wrong:

| Error type | The generator ... |
|---|---|
| Comprehension | misread the change, e.g. took removed lines for added ones or the opposite of a condition. The most frequent kind. |
| Knowledge | relied on wrong facts about the language, a library or a tool. |
| Reasoning | read the code correctly but drew a wrong logical conclusion from it. |
| Localization | put the change in the wrong place (another method, test or file). |
| Over-generalization | assumed more than the visible context supports, or contradicted the rest of the file. |

Add a short note whenever the reason is not obvious from the code.

### Necessity and missing claims

- Untick **necessary** for a statement that is true but adds nothing for this change: trivial,
  or redundant with another statement. Unnecessary statements are ignored in stage 2.
- **Add a claim** for every important aspect of the change that none of the statements covers. When
  you mark a statement incorrect and can state the true version, add it as a correction of that
  statement.

## 2. Review rating (stage 2)

The statements for this stage are the result of stage 1: incorrect, unverifiable and incomplete
statements are dropped (or replaced by their correction), unnecessary ones are ignored, added claims
and smells are included. Call this set the **claims and issues** of the change.

**First link, then score.** For each review, tick the claims and issues it talks about, fully or
partially. Think of product reviews: if a phone's description lists "longer battery life" and "a
sharper screen", the review "great screen, but the battery dies fast" addresses both aspects. In the
same way, a review saying "the \`%s\` at the end of the log message is redundant" addresses the claim
that the log message format changed, even though it never says "format".

Then score each dimension from 1 to 5. Use these rules of thumb to stay calibrated:

| Score | Conciseness: how much of the review is about the claims and issues | Comprehensiveness: how many of the claims and issues the review covers |
|---:|---|---|
| 1 | none of it | none of them |
| 2 | some of it | at least one |
| 3 | about half of it | about half of them |
| 4 | most of it | more than half of them |
| 5 | practically all of it | practically all of them |

**Relevance** sums up the other two: score it between conciseness and comprehensiveness. If one of
them is very low, it limits relevance, so stay close to the low one. A precise one-liner that covers
a single minor claim out of six is concise but not comprehensive, and its relevance is low.

## 3. Reference-based grading

Here you compare a generated review with the human reference review of the same change. Judge the
match with the reference only; assume the reference is right and do not re-review the code.

| Grade | Meaning |
|---:|---|
| 5 (perfect) | Identical to the reference. |
| 4 (excellent) | Says essentially the same as the reference in different words. |
| 3 (good) | Clearly and correctly makes some of the comments or suggestions of the reference. |
| 2 (fair) | Only loosely related to the reference. |
| 1 (poor) | Unrelated to the reference. |

## 4. Comment filtering

Decide whether a review comment is **high quality**: it points to a specific problem in this change
that the author can act on, and whether the problem is fixed can be checked objectively, for example
by a test. Label it **low quality** when it has no concrete action item: questions asking for
clarification, acknowledgements, praise, general advice, or concerns that no test could settle
(style preferences, "are you sure?"). Always give a one-sentence justification.
`;
