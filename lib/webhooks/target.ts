/**
 * Where a webhook may send (SSRF, OWASP's SSRF prevention cheat sheet): an https URL whose host
 * resolves only to public addresses; every address the name resolves to is checked, and the
 * delivery connects to the addresses checked, so a name that resolves elsewhere later (DNS
 * rebinding) is not followed. Private, loopback, link-local (the cloud metadata address
 * 169.254.169.254 among them), carrier-grade NAT, multicast and reserved addresses are refused
 * unless the operator allows the host by name (CRJUDGE_WEBHOOK_ALLOWED_HOSTS, e.g. a receiver on
 * the same machine: `127.0.0.1`); plain http only to an allowed host that is loopback.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** Address ranges no webhook reaches unless its host is allowed, with why. */
const RANGES: [string, number, "ipv4" | "ipv6", string][] = [
  ["0.0.0.0", 8, "ipv4", "an unspecified address"],
  ["10.0.0.0", 8, "ipv4", "a private address"],
  ["100.64.0.0", 10, "ipv4", "a carrier-grade NAT address"],
  ["127.0.0.0", 8, "ipv4", "a loopback address"],
  ["169.254.0.0", 16, "ipv4", "a link-local address (cloud metadata among them)"],
  ["172.16.0.0", 12, "ipv4", "a private address"],
  ["192.0.0.0", 24, "ipv4", "a reserved address"],
  ["192.168.0.0", 16, "ipv4", "a private address"],
  ["198.18.0.0", 15, "ipv4", "a benchmarking address"],
  ["224.0.0.0", 3, "ipv4", "a multicast or reserved address"],
  ["::", 128, "ipv6", "an unspecified address"],
  ["::1", 128, "ipv6", "a loopback address"],
  ["fc00::", 7, "ipv6", "a private address (unique local, cloud metadata among them)"],
  ["fe80::", 10, "ipv6", "a link-local address"],
  ["ff00::", 8, "ipv6", "a multicast address"],
  ["64:ff9b::", 96, "ipv6", "a NAT64 address"],
];

const lists = RANGES.map(([network, prefix, family, why]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, why, loopback: why === "a loopback address" };
});

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:10.0.0.1), else the address. */
function unmapped(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** Why an address is not public (null: it is), and whether it is loopback. */
export function addressProblem(raw: string): { why: string; loopback: boolean } | null {
  const { address, family } = unmapped(raw);
  const found = lists.find((l) => l.list.check(address, family));
  return found ? { why: found.why, loopback: found.loopback } : null;
}

export interface Target {
  url: URL;
  /** The addresses checked, which the delivery connects to. */
  addresses: { address: string; family: 4 | 6 }[];
}

/** The hosts the operator allows although not public (CRJUDGE_WEBHOOK_ALLOWED_HOSTS). */
export const allowedHosts = (): readonly string[] => env().CRJUDGE_WEBHOOK_ALLOWED_HOSTS;

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

const refuse = (message: string) => new AppError("INVALID_INPUT", { message });

/**
 * Checks a webhook URL and resolves its host: throws INVALID_INPUT naming what is wrong (the
 * form, the scheme, an address and why). `allowed`: host names or addresses the operator
 * allows although not public.
 */
export async function checkTarget(text: string, allowed: readonly string[] = allowedHosts(), resolve: Resolve = systemResolve): Promise<Target> {
  if (!URL.canParse(text)) throw refuse(`Not a URL: ${text.slice(0, 200)}`);
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse(`A webhook URL is https (or http to an allowed loopback host), not ${url.protocol}`);
  if (url.username || url.password) throw refuse("A webhook URL carries no credentials (a name or password before the host); the signature authenticates the sender.");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const hostAllowed = allowed.map((h) => h.trim().toLowerCase()).includes(host);
  let resolved: { address: string; family: number }[];
  try {
    resolved = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch {
    throw refuse(`The host ${host} of the webhook URL does not resolve.`);
  }
  if (resolved.length === 0) throw refuse(`The host ${host} of the webhook URL does not resolve.`);
  const problems = resolved.map((r) => ({ address: r.address, problem: addressProblem(r.address) }));
  const bad = problems.find((p) => p.problem);
  if (bad && !hostAllowed) throw refuse(`The webhook host ${host} resolves to ${bad.address}, ${bad.problem!.why}; only public addresses are reached unless an admin allows the host (CRJUDGE_WEBHOOK_ALLOWED_HOSTS).`);
  if (url.protocol === "http:" && !(hostAllowed && problems.every((p) => p.problem?.loopback)))
    throw refuse(`A webhook URL is https; plain http only to a loopback host an admin allows (CRJUDGE_WEBHOOK_ALLOWED_HOSTS), not ${host}.`);
  return { url, addresses: resolved.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 })) };
}
