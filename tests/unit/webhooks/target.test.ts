/**
 * The webhook targets' SSRF checks: private, loopback, link-local (cloud metadata), CGNAT and
 * mapped addresses are refused, whether written in the URL or resolved from a name, every
 * resolved address counting; an allowed host passes; plain http only to an allowed loopback host.
 */
import { describe, expect, test } from "vitest";
import { signature, signatureMatches } from "@/lib/webhooks/events";
import { addressProblem, checkTarget, type Resolve } from "@/lib/webhooks/target";

/** A resolver answering from a table, as a DNS server would (the check's input, not the code under test). */
const zone =
  (records: Record<string, string[]>): Resolve =>
  async (host) => {
    const addresses = records[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const dns = zone({
  "hooks.example.org": ["93.184.215.14"],
  "rebind.example.org": ["93.184.215.14", "10.1.2.3"],
  "metadata.example.org": ["169.254.169.254"],
  "v6.example.org": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "ula.example.org": ["fd00:ec2::254"],
  "receiver.internal": ["192.168.1.20"],
});

describe("webhook targets", () => {
  test("classifies addresses", () => {
    for (const address of ["10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "127.0.0.1", "127.9.9.9", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fe80::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "224.0.0.1", "255.255.255.255"])
      expect(addressProblem(address), address).not.toBeNull();
    for (const address of ["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::ffff:93.184.215.14"]) expect(addressProblem(address), address).toBeNull();
    expect(addressProblem("127.0.0.1")?.loopback).toBe(true);
    expect(addressProblem("::ffff:127.0.0.1")?.loopback).toBe(true);
  });

  test("refuses private, link-local and metadata targets, by address or by any address of a name", async () => {
    const refused: [string, RegExp][] = [
      ["https://10.0.0.5/hook", /10\.0\.0\.5, a private address/],
      ["https://169.254.169.254/latest/meta-data", /link-local address \(cloud metadata/],
      ["https://[::1]/hook", /::1, a loopback address/],
      ["https://[::ffff:192.168.0.1]/hook", /private address/],
      ["https://metadata.example.org/hook", /metadata\.example\.org resolves to 169\.254\.169\.254/],
      ["https://rebind.example.org/hook", /resolves to 10\.1\.2\.3, a private address/],
      ["https://ula.example.org/hook", /fd00:ec2::254/],
      ["https://127.0.0.1:8080/hook", /loopback address.*CRJUDGE_WEBHOOK_ALLOWED_HOSTS/],
      ["http://hooks.example.org/hook", /A webhook URL is https/],
      ["ftp://hooks.example.org/hook", /not ftp:/],
      ["https://name:pw@hooks.example.org/hook", /no credentials/],
      ["https://nowhere.example.org/hook", /does not resolve/],
      ["not a url", /Not a URL/],
    ];
    for (const [url, why] of refused) await expect(checkTarget(url, [], dns), url).rejects.toThrow(why);
  });

  test("takes public https targets, and private or loopback hosts an admin allows", async () => {
    expect((await checkTarget("https://hooks.example.org/a?b=1", [], dns)).addresses).toEqual([{ address: "93.184.215.14", family: 4 }]);
    expect((await checkTarget("https://v6.example.org/", [], dns)).addresses[0].family).toBe(6);
    expect((await checkTarget("https://receiver.internal/hook", ["receiver.internal"], dns)).addresses).toEqual([{ address: "192.168.1.20", family: 4 }]);
    expect((await checkTarget("http://127.0.0.1:9000/hook", ["127.0.0.1"], dns)).url.port).toBe("9000");
    // http stays refused to an allowed host that is not loopback
    await expect(checkTarget("http://receiver.internal/hook", ["receiver.internal"], dns)).rejects.toThrow(/plain http only to a loopback host/);
    // the system's resolver: localhost is loopback
    await expect(checkTarget("https://localhost/hook", [])).rejects.toThrow(/loopback address/);
    expect((await checkTarget("http://localhost:9000/hook", ["localhost"])).addresses.every((a) => addressProblem(a.address)?.loopback)).toBe(true);
  });

  test("signs the body's bytes with HMAC-SHA256 (RFC 4231 test case 2)", () => {
    expect(signature("Jefe", "what do ya want for nothing?")).toBe("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    expect(signatureMatches("Jefe", "what do ya want for nothing?", "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")).toBe(true);
    expect(signatureMatches("Jefe", "what do ya want for nothing!", "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")).toBe(false);
    expect(signatureMatches("Jefe", "x", null)).toBe(false);
  });
});
