/** What the server notes on each request, on a real HTTP server and real connections from other loopback addresses. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { clientAddress } from "@/lib/auth/throttle";
import { appendForwardedFor, observeRequests, REQUEST_TARGET_HEADER } from "@/lib/http/request-start";

describe("X-Forwarded-For completed with the connection's address", () => {
  test("appended to what the request brought, or alone", () => {
    expect(appendForwardedFor(undefined, "127.0.0.1")).toBe("127.0.0.1");
    expect(appendForwardedFor("  ", "127.0.0.1")).toBe("127.0.0.1");
    expect(appendForwardedFor("6.6.6.6", "127.0.0.1")).toBe("6.6.6.6, 127.0.0.1");
    expect(appendForwardedFor(["6.6.6.6", "7.7.7.7"], "::1")).toBe("6.6.6.6, 7.7.7.7, ::1");
    expect(appendForwardedFor("6.6.6.6", undefined)).toBe("6.6.6.6");
  });

  describe("on a server", () => {
    // Answers the client address the sign-in throttle would count, for the TRUSTED_PROXIES in the query.
    const server = http.createServer((request, response) => {
      if (request.url?.startsWith("/target")) return response.end(request.headers[REQUEST_TARGET_HEADER]);
      const proxies = Number(new URL(request.url ?? "/", "http://x").searchParams.get("proxies"));
      response.end(clientAddress(request.headers["x-forwarded-for"], proxies));
    });
    let port = 0;
    beforeAll(async () => {
      observeRequests();
      observeRequests(); // subscribes once per process, however often called
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const get = (path: string, localAddress: string, headers: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path, localAddress, headers }, (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
    const from = (localAddress: string, proxies: number, forwardedFor?: string) => get(`/?proxies=${proxies}`, localAddress, forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor });

    test("without a proxy the connection's address counts, whatever the client writes into the header", async () => {
      expect(await from("127.0.0.2", 0)).toBe("127.0.0.2");
      expect(await from("127.0.0.2", 0, "198.51.100.7")).toBe("127.0.0.2");
      expect(await from("127.0.0.3", 0, "198.51.100.7, 198.51.100.8")).toBe("127.0.0.3");
    });

    test("behind one proxy, the entry it appended counts; what the client wrote before it does not", async () => {
      // The proxy (at 127.0.0.4) appended the address it saw, 203.0.113.9, to the client's own header.
      expect(await from("127.0.0.4", 1, "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
      expect(await from("127.0.0.4", 1, "7.7.7.7, 203.0.113.9")).toBe("203.0.113.9");
      expect(await from("127.0.0.4", 2, "6.6.6.6, 203.0.113.9, 10.0.0.1")).toBe("203.0.113.9");
    });

    test("the request target is noted as sent, replacing a header of that name the client sent", async () => {
      expect(await get("/target?itemSet=%ED%A0%80&x=%00", "127.0.0.5")).toBe("/target?itemSet=%ED%A0%80&x=%00");
      expect(await get("/target?a=1", "127.0.0.5", { [REQUEST_TARGET_HEADER]: "/clean" })).toBe("/target?a=1");
    });
  });
});
