/** Small text helpers shared by the prompt builders and result details. */

/** `text` between `<tag>` lines, so reviews and diffs with quotes or backticks stay delimited. */
export const tagged = (tag: string, text: string) => `<${tag}>\n${text.trim()}\n</${tag}>`;

/** At most `max` characters of a model answer kept in a result detail. */
export const clip = (text: string, max = 500) => (text.length > max ? `${text.slice(0, max)}…` : text);
