/** Java changes of the demo study: a user service moving to Optional, and a token bucket. */
import type { DemoChange } from "../types";
import { rate, source } from "./helpers";

export const USER_SERVICE_OPTIONAL: DemoChange = {
  externalId: "java-user-service-optional",
  filePath: "src/main/java/com/acme/users/UserService.java",
  language: "java",
  metadata: { repository: "acme/accounts" },
  oldFile: source(`
package com.acme.users;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

public class UserService {

    private final Map<String, User> usersByEmail = new ConcurrentHashMap<>();
    private final AuditLog auditLog;

    public UserService(AuditLog auditLog) {
        this.auditLog = auditLog;
    }

    public void register(User user) {
        usersByEmail.put(user.getEmail(), user);
        auditLog.record("register", user.getEmail());
    }

    /**
     * Returns the user with this email, or null when there is none.
     */
    public User findByEmail(String email) {
        return usersByEmail.get(email);
    }

    public boolean deactivate(String email) {
        User user = findByEmail(email);
        if (user == null) {
            return false;
        }
        user.setActive(false);
        auditLog.record("deactivate", email);
        return true;
    }

    public List<User> listActive() {
        return usersByEmail.values().stream().filter(User::isActive).toList();
    }
}
`),
  newFile: source(`
package com.acme.users;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

public class UserService {

    private final Map<String, User> usersByEmail = new ConcurrentHashMap<>();
    private final AuditLog auditLog;

    public UserService(AuditLog auditLog) {
        this.auditLog = auditLog;
    }

    static String normalizeEmail(String email) {
        return email.trim().toLowerCase(Locale.ROOT);
    }

    public void register(User user) {
        String key = normalizeEmail(user.getEmail());
        if (usersByEmail.putIfAbsent(key, user) != null) {
            throw new IllegalStateException("A user with email " + key + " already exists");
        }
        auditLog.record("register", key);
    }

    /**
     * Returns the user with this email (compared case-insensitively), if any.
     */
    public Optional<User> findByEmail(String email) {
        return Optional.ofNullable(usersByEmail.get(normalizeEmail(email)));
    }

    public User requireByEmail(String email) {
        return findByEmail(email).orElseThrow(() -> new UserNotFoundException(email));
    }

    public boolean deactivate(String email) {
        Optional<User> user = findByEmail(email);
        if (user.isEmpty()) {
            return false;
        }
        user.get().setActive(false);
        auditLog.record("deactivate", normalizeEmail(email));
        return true;
    }

    public List<User> listActive() {
        return usersByEmail.values().stream().filter(User::isActive).toList();
    }
}
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "`findByEmail` now returns an `Optional<User>` instead of null when no user matches." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "Emails are normalized with `trim()` and `toLowerCase(Locale.ROOT)` before they are stored or looked up." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "`register` now overwrites an existing user with the same email and logs a warning." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "A new method `requireByEmail` throws a `UserNotFoundException` when the user does not exist." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "Every caller of `findByEmail` that compares the result with null must be updated, since the return type changed." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "Users registered before this change with upper-case letters in their email can no longer be found, because their keys were stored without normalization." },
    { key: "i3", kind: "IMPLICATION", source: "gpt-4o", text: "The change makes `UserService` thread-safe." },
    { key: "s1", kind: "SMELL", source: "pmd", text: "CommentRequired: public method and constructor comments are required (`requireByEmail`)." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "Throwing on duplicates in `register` breaks the nightly import, which re-registers every user. Can we make registering an identical user a no-op instead?" },
    {
      system: "gpt-3.5",
      text: "Returning `Optional<User>` from `findByEmail` is cleaner than returning null, but it is a breaking change: every caller that compares the result with `null` has to be updated. In `deactivate`, prefer `findByEmail(email).map(...)` or `ifPresent` over `isEmpty()` followed by `get()`. Also note that `register` now throws on duplicate emails, which callers may not expect; please document this in the Javadoc.",
    },
    { system: "codereviewer", text: "Why not return an `Optional` from `requireByEmail` too?" },
    {
      system: "llama3",
      text: "This code change introduces email normalization and makes `findByEmail` return an `Optional`. Overall, it looks good! Here are some suggestions:\n\n1. Add Javadoc to `requireByEmail`.\n2. Consider using `ifPresentOrElse` in `deactivate`.\n3. Add unit tests for emails with upper-case letters.\n4. Consider logging when a user is not found.\n\nGreat job!",
    },
    { system: "magicoder", text: "`normalizeEmail` throws a `NullPointerException` when `email` is null, whereas `findByEmail(null)` used to return null. Add `Objects.requireNonNull(email, \"email\")` or handle null explicitly." },
    { system: "knn", text: "Please use `Objects.equals` here." },
    { system: "lstm", text: "remove this line" },
  ],
  work: {
    ann1: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "INCORRECT", errorType: "COMPREHENSION", note: "`register` throws an IllegalStateException on duplicates; nothing is overwritten or logged." },
        c4: { code: "CORRECT" },
        i1: { code: "CORRECT" },
        i2: { code: "CORRECT" },
        i3: { code: "INCORRECT", errorType: "OVER_GENERALIZATION", note: "`putIfAbsent` makes `register` atomic, but `User.setActive` is still unsynchronized." },
      },
      addedClaims: [
        { key: "a1", corrects: "c3", text: "`register` now throws an `IllegalStateException` when a user with the same normalized email exists, instead of silently replacing it." },
      ],
      ratings: {
        human: rate(5, 2, 2, ["a1"]),
        "gpt-3.5": rate(5, 3, 4, ["c1", "i1", "a1"], ["s1"]),
        codereviewer: rate(3, 2, 2, [], ["c4"]),
        llama3: rate(3, 3, 3, ["c1", "c2", "s1"]),
        magicoder: rate(2, 1, 1),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 3, codereviewer: 1, llama3: 1, magicoder: 2, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Identifies the breaking return type and the undocumented exception; both can be checked." },
        codereviewer: { highQuality: false, justification: "A question, not a problem in the change." },
        llama3: { highQuality: false, justification: "A list of generic suggestions." },
        magicoder: { highQuality: true, justification: "A null email now throws an NPE: concrete and testable." },
        knn: { highQuality: false, justification: "There is no equality check to change." },
        lstm: { highQuality: false, justification: "Does not say which line or why." },
      },
    },
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "INCORRECT", errorType: "COMPREHENSION" },
        c4: { code: "CORRECT" },
        i1: { code: "CORRECT" },
        i2: { code: "UNVERIFIABLE", note: "The map lives in memory; whether old keys survive depends on how the service is populated, which is not shown." },
        i3: { code: "AMBIGUOUS", note: "Thread-safe with respect to which operations?" },
      },
      addedClaims: [{ key: "a2", text: "`findByEmail(null)` now throws a NullPointerException from `normalizeEmail`, where it used to return null." }],
      ratings: {
        human: rate(2, 1, 1),
        "gpt-3.5": rate(4, 3, 3, ["c1", "i1"], ["s1"]),
        codereviewer: rate(3, 2, 2, [], ["c4"]),
        llama3: rate(2, 3, 2, ["c1", "c2", "s1"]),
        magicoder: rate(5, 2, 2, ["a2"]),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      grades: { "gpt-3.5": 2, codereviewer: 1, llama3: 1, magicoder: 1, knn: 1, lstm: 1 },
      filters: {
        "gpt-3.5": { highQuality: false, justification: "Mostly style advice (map/ifPresent) and documentation; no defect a test would catch." },
        codereviewer: { highQuality: false, justification: "Only a question." },
        llama3: { highQuality: false, justification: "Generic praise and suggestions." },
        magicoder: { highQuality: true, justification: "The NullPointerException on null input is a verifiable regression." },
        knn: { highQuality: false, justification: "Not applicable to this code." },
        lstm: { highQuality: false, justification: "No actionable content." },
      },
    },
  },
};

export const TOKEN_BUCKET: DemoChange = {
  externalId: "java-token-bucket",
  filePath: "src/main/java/com/acme/gateway/TokenBucket.java",
  language: "java",
  metadata: { repository: "acme/gateway" },
  oldFile: source(`
package com.acme.gateway;

/**
 * A token bucket: up to {@code capacity} requests at once, refilled at {@code refillPerSecond}.
 */
public class TokenBucket {

    private final long capacity;
    private final long refillPerSecond;
    private long tokens;
    private long lastRefill;

    public TokenBucket(long capacity, long refillPerSecond) {
        this.capacity = capacity;
        this.refillPerSecond = refillPerSecond;
        this.tokens = capacity;
        this.lastRefill = System.currentTimeMillis();
    }

    public synchronized boolean tryAcquire() {
        refill();
        if (tokens > 0) {
            tokens--;
            return true;
        }
        return false;
    }

    private void refill() {
        long now = System.currentTimeMillis();
        long elapsedSeconds = (now - lastRefill) / 1000;
        if (elapsedSeconds > 0) {
            tokens = Math.min(capacity, tokens + elapsedSeconds * refillPerSecond);
            lastRefill = now;
        }
    }
}
`),
  newFile: source(`
package com.acme.gateway;

import java.util.function.LongSupplier;

/**
 * A token bucket: up to {@code capacity} requests at once, refilled at {@code refillPerSecond}.
 */
public class TokenBucket {

    private static final double NANOS_PER_SECOND = 1_000_000_000.0;

    private final long capacity;
    private final double refillPerNano;
    private final LongSupplier nanoClock;
    private double tokens;
    private long lastRefill;

    public TokenBucket(long capacity, long refillPerSecond) {
        this(capacity, refillPerSecond, System::nanoTime);
    }

    TokenBucket(long capacity, long refillPerSecond, LongSupplier nanoClock) {
        if (capacity <= 0 || refillPerSecond <= 0) {
            throw new IllegalArgumentException("capacity and refillPerSecond must be positive");
        }
        this.capacity = capacity;
        this.refillPerNano = refillPerSecond / NANOS_PER_SECOND;
        this.nanoClock = nanoClock;
        this.tokens = capacity;
        this.lastRefill = nanoClock.getAsLong();
    }

    public boolean tryAcquire() {
        return tryAcquire(1);
    }

    public synchronized boolean tryAcquire(int permits) {
        if (permits <= 0 || permits > capacity) {
            throw new IllegalArgumentException("permits must be between 1 and " + capacity);
        }
        refill();
        if (tokens >= permits) {
            tokens -= permits;
            return true;
        }
        return false;
    }

    private void refill() {
        long now = nanoClock.getAsLong();
        tokens = Math.min(capacity, tokens + (now - lastRefill) * refillPerNano);
        lastRefill = now;
    }
}
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "The bucket now reads time from an injectable nanosecond clock (`System::nanoTime` by default) instead of `System.currentTimeMillis()`." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "Tokens are now refilled continuously in fractional amounts instead of only once a whole second has elapsed." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The `tryAcquire()` method without arguments is no longer declared `synchronized`." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "The constructor now checks that `capacity` is greater than `refillPerSecond`." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "Using `System.nanoTime` makes the limiter immune to wall-clock adjustments such as NTP corrections." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "The package-private constructor lets tests control time deterministically." },
    { key: "s1", kind: "SMELL", source: "pmd", text: "AvoidSynchronizedAtMethodLevel: use block level locking rather than method level synchronization (`tryAcquire(int)`)." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "Throwing when `permits > capacity` turns an oversized request into a 500 at the gateway. Returning `false` would let the caller answer 429 as usual." },
    {
      system: "gpt-3.5",
      text: "Using an injectable `LongSupplier` over `System::nanoTime` makes the bucket testable and immune to wall-clock jumps, and the continuous refill is more accurate. Note that `tryAcquire(int)` throws for `permits > capacity`; returning `false` may be friendlier for callers. PMD will also flag the method-level `synchronized`; a private lock object would avoid exposing the monitor.",
    },
    { system: "codereviewer", text: "Use `TimeUnit.SECONDS.toNanos(1)` instead of a hand-written constant." },
    { system: "magicoder", text: "`refill()` can overflow when the clock value wraps around; compare with `now - lastRefill > 0` first." },
    { system: "stable-code", text: "Looks good to me." },
    { system: "lstm", text: "add a space after ` if `" },
  ],
  work: {
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT", necessary: false, note: "True, but it delegates to the synchronized overload, so nothing changes." },
        c4: { code: "INCORRECT", errorType: "REASONING", note: "It checks that both values are positive, not how they compare." },
        i1: { code: "CORRECT" },
        i2: { code: "CORRECT" },
      },
      ratings: {
        human: rate(2, 1, 1),
        "gpt-3.5": rate(5, 4, 4, ["c1", "c2", "i1", "s1"]),
      },
      grades: { "gpt-3.5": 3, codereviewer: 1, magicoder: 1, "stable-code": 1, lstm: 1 },
    },
  },
};
