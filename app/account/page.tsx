import { CreateTokenForm, RevokeTokenButton } from "@/components/api-token-forms";
import { DataTable } from "@/components/dashboard/data-table";
import { content, text } from "@/components/dashboard/table-data";
import { DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, SCOPE_DESCRIPTIONS, SCOPE_NAMES, scopeName } from "@/lib/auth/api-token";
import { requirePageAccount } from "@/lib/auth/session";
import { listApiTokens } from "@/lib/data/api-tokens";
import { participantStudySlug } from "@/lib/data/participants";
import { createToken, revokeToken } from "./actions";

export const dynamic = "force-dynamic";

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "never");

export default async function AccountPage() {
  const account = await requirePageAccount();
  const crowdStudy = await participantStudySlug(account.id);
  if (crowdStudy !== null) {
    // A participant of a crowd link has no e-mail or password here, and no tokens (a script of theirs would be a bot).
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="text-sm text-slate-600" data-testid="participant-account">
          You take part in one study through its participation link, in this browser. Nothing about you is kept but the id your platform gave the link.{" "}
          <a className="underline" href={`/participate/${encodeURIComponent(crowdStudy)}`}>
            Back to the study
          </a>
        </p>
      </div>
    );
  }
  const tokens = await listApiTokens(account.id);
  const now = new Date();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Your account</h1>
      <p className="text-sm text-slate-600">
        {account.name} · {account.email} · {account.role.toLowerCase()}
      </p>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">API tokens</h2>
        <p className="text-sm text-slate-600">
          Scripts call the JSON routes under /api with <code>Authorization: Bearer TOKEN</code> (the routes: <a className="underline" href="/api/openapi.json">/api/openapi.json</a>). A token acts as
          you, within its scopes and never beyond your role: {SCOPE_NAMES.map((n) => `${n}: ${SCOPE_DESCRIPTIONS[n]}`).join("; ")}. Pages and forms take no token.
        </p>
        <CreateTokenForm submit={createToken} scopes={SCOPE_NAMES.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] }))} defaultDays={DEFAULT_EXPIRY_DAYS} maxDays={MAX_EXPIRY_DAYS} />
        <DataTable
          table={{
            label: "API tokens",
            columns: [
              { key: "name", label: "Name" },
              { key: "token", label: "Token" },
              { key: "scopes", label: "Scopes" },
              { key: "created", label: "Created" },
              { key: "expires", label: "Expires" },
              { key: "used", label: "Last used" },
              { key: "status", label: "Status" },
              { key: "actions", label: "" },
            ],
            rows: tokens.map((token) => {
              const status = token.revokedAt ? "revoked" : token.expiresAt <= now ? "expired" : "active";
              return {
                key: token.id,
                data: { testid: "token-row" },
                cells: [
                  text(token.name),
                  text(`${token.hint}…`, { mono: true }),
                  text(token.scopes.map(scopeName).join(", ")),
                  text(day(token.createdAt)),
                  text(day(token.expiresAt)),
                  text(day(token.lastUsedAt)),
                  text(status),
                  content(status === "active" ? <RevokeTokenButton submit={revokeToken} tokenId={token.id} /> : null),
                ],
              };
            }),
          }}
        />
      </section>
    </div>
  );
}
