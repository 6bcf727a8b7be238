/**
 * `npm run cli -- tokens create|list|revoke`: API tokens of any account, for operators
 * (lib/data/api-tokens.ts). `create` prints the token once; only its hash is kept.
 */
import { newTokenSchema, parseScopeList, scopeName } from "@/lib/auth/api-token";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { type ApiTokenRow, createApiToken, listApiTokens, revokeApiToken, tokenOwnerByEmail } from "@/lib/data/api-tokens";

/** A token as the CLI prints it: scopes by their names. */
const shown = <T extends ApiTokenRow>(row: T) => ({ ...row, scopes: row.scopes.map(scopeName) });

const command: Command = {
  name: "tokens",
  usage: "tokens create --email E --scopes read[,import,assign] --name N [--expires-days D] | list [--email E] | revoke --id ID",
  async run(args) {
    const [action, ...extra] = args.positional;
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra.join(" ")}`);
    switch (action) {
      case "create": {
        const owner = await tokenOwnerByEmail(requireFlag(args, "email"));
        const days = optionalFlag(args, "expires-days");
        const input = newTokenSchema.parse({ name: requireFlag(args, "name"), scopes: parseScopeList(requireFlag(args, "scopes")), expiresInDays: days === undefined ? undefined : Number(days) });
        return { email: owner.email, ...shown(await createApiToken(owner.id, input)) };
      }
      case "list": {
        const email = optionalFlag(args, "email");
        return (await listApiTokens(email === undefined ? undefined : (await tokenOwnerByEmail(email)).id)).map(shown);
      }
      case "revoke":
        return shown(await revokeApiToken(undefined, requireFlag(args, "id")));
      default:
        throw new CliError(`tokens needs an action: create, list or revoke${action ? ` (not "${action}")` : ""}`);
    }
  },
};
export default command;
