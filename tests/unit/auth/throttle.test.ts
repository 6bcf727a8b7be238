import { describe, expect, test } from "vitest";
import { clientAddress, deviceKey, signInKeys, trustedProxies } from "@/lib/auth/throttle";
import { env, parseEnv } from "@/lib/env";

describe("sign-in throttle keys", () => {
  test("the client address is the connection's (the last entry, which the server appends), or the one the trusted proxies name", () => {
    expect(clientAddress("127.0.0.1", 0)).toBe("127.0.0.1");
    expect(clientAddress(undefined, 0)).toBe("unknown");
    expect(clientAddress("", 1)).toBe("unknown");
    // Without a proxy, what the client wrote before the connection's address is ignored.
    expect(clientAddress("6.6.6.6, 7.7.7.7, 192.0.2.1", 0)).toBe("192.0.2.1");
    // A client-sent entry, the one a trusted proxy appended, and the proxy's connection.
    expect(clientAddress("6.6.6.6, 203.0.113.9, 10.0.0.1", 1)).toBe("203.0.113.9");
    expect(clientAddress("6.6.6.6, 203.0.113.9, 10.0.0.2, 10.0.0.1", 2)).toBe("203.0.113.9");
    expect(clientAddress(["6.6.6.6", "203.0.113.9", "10.0.0.1"], 1)).toBe("203.0.113.9");
    // Fewer entries than proxies: a request that did not come through them.
    expect(clientAddress("203.0.113.9", 3)).toBe("203.0.113.9");
  });

  test("TRUSTED_PROXIES is a count, 0 when unset; anything else is refused when the environment is read", () => {
    expect(parseEnv({}).TRUSTED_PROXIES).toBe(0);
    expect(parseEnv({ TRUSTED_PROXIES: "2" }).TRUSTED_PROXIES).toBe(2);
    for (const bad of ["yes", "-1", "1.5"]) expect(() => parseEnv({ TRUSTED_PROXIES: bad })).toThrow(`TRUSTED_PROXIES=${JSON.stringify(bad)}: a whole number`);
    expect(trustedProxies()).toBe(env().TRUSTED_PROXIES);
  });

  test("one key per account e-mail and one per address", () => {
    const keys = signInKeys("a@example.org", "203.0.113.9");
    expect([keys.account.key, keys.address.key]).toEqual(["account:a@example.org", "address:203.0.113.9"]);
    expect(keys.address.policy.free).toBeGreaterThan(keys.account.policy.free);
    // A device cookie's attempts are slowed down as an account's are.
    expect(deviceKey("n0nce")).toEqual({ key: "device:n0nce", policy: keys.account.policy });
  });
});
