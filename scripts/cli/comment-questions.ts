/**
 * `npm run cli -- comment-questions show|set|add --study SLUG ...`: the questions a study asks of
 * each review comment (lib/data/comment-questions.ts), as the settings page edits them. `set`
 * reads a JSON array of questions; `add` appends one of c-CRAB's templates. A change that would
 * invalidate stored answers is refused with how many it holds, as on the page.
 */
import { readFileSync } from "node:fs";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { COMMENT_QUESTION_TEMPLATES } from "@/lib/annotation/comment-questions";
import { getCommentQuestions, updateCommentQuestions } from "@/lib/data/comment-questions";
import { COMMAND_LINE } from "@/lib/data/study-access";

const TEMPLATE_KEYS = Object.keys(COMMENT_QUESTION_TEMPLATES) as (keyof typeof COMMENT_QUESTION_TEMPLATES)[];

/** The file's JSON, or an error naming the file and why. */
function readQuestions(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new CliError(`${file}: cannot read the file`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: not JSON (${(error as Error).message}); expected an array of questions as \`comment-questions show\` prints them`);
  }
}

const command: Command = {
  name: "comment-questions",
  usage: `comment-questions show --study SLUG | set --study SLUG --file QUESTIONS.json | add --study SLUG --template ${TEMPLATE_KEYS.join("|")}   (the questions asked of each review comment; removing a question or codebook option with stored answers is refused)`,
  async run(args) {
    const [action, ...extra] = args.positional;
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra.join(" ")}`);
    const slug = requireFlag(args, "study");
    switch (action) {
      case "show":
        return getCommentQuestions(COMMAND_LINE, slug);
      case "set":
        return updateCommentQuestions(COMMAND_LINE, { slug, questions: readQuestions(requireFlag(args, "file")) as never });
      case "add": {
        const key = optionalFlag(args, "template") ?? "";
        if (!(TEMPLATE_KEYS as string[]).includes(key)) throw new CliError(`--template: one of ${TEMPLATE_KEYS.join(", ")}${key ? ` (not "${key}")` : ""}`);
        const { questions } = await getCommentQuestions(COMMAND_LINE, slug);
        if (questions.some((q) => q.key === key)) throw new CliError(`the study already asks "${key}"`);
        return updateCommentQuestions(COMMAND_LINE, { slug, questions: [...questions, COMMENT_QUESTION_TEMPLATES[key as keyof typeof COMMENT_QUESTION_TEMPLATES]] });
      }
      default:
        throw new CliError(`comment-questions needs an action: show, set or add${action ? ` (not "${action}")` : ""}`);
    }
  },
};
export default command;
