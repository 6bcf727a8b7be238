/** The demo pull request: cursor pagination for an orders API, in three JavaScript files. */
import type { DemoChange, DemoPullRequest } from "../types";
import { lineOf, rate, source } from "./helpers";

const REPOSITORY = "acme/shop-api";

const ROUTES: DemoChange = {
  externalId: "pr-118-routes",
  filePath: "src/routes/orders.js",
  language: "javascript",
  metadata: { repository: REPOSITORY },
  oldFile: source(`
const express = require('express');
const { listOrders, getOrder } = require('../db/orders');

const router = express.Router();

router.get('/', async (req, res, next) => {
  try {
    const orders = await listOrders({ customerId: req.user.customerId });
    res.json({ orders });
  } catch (error) {
    next(error);
  }
});

router.get('/:id', async (req, res, next) => {
  try {
    const order = await getOrder(req.params.id, req.user.customerId);
    if (!order) {
      res.status(404).json({ error: 'order not found' });
      return;
    }
    res.json(order);
  } catch (error) {
    next(error);
  }
});

module.exports = router;
`),
  newFile: source(`
const express = require('express');
const { listOrders, getOrder } = require('../db/orders');

const router = express.Router();

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function parseLimit(value) {
  if (value === undefined) {
    return DEFAULT_LIMIT;
  }
  const limit = Number.parseInt(value, 10);
  if (Number.isNaN(limit) || limit < 1) {
    return null;
  }
  return Math.min(limit, MAX_LIMIT);
}

function decodeCursor(cursor) {
  if (cursor === undefined) {
    return undefined;
  }
  return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
}

function encodeCursor(order) {
  const key = { createdAt: order.createdAt, id: order.id };
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

router.get('/', async (req, res, next) => {
  const limit = parseLimit(req.query.limit);
  if (limit === null) {
    res.status(400).json({ error: 'limit must be a positive integer' });
    return;
  }
  try {
    const after = decodeCursor(req.query.cursor);
    const orders = await listOrders({ customerId: req.user.customerId, limit: limit + 1, after });
    const page = orders.slice(0, limit);
    const nextCursor = orders.length > limit ? encodeCursor(page[page.length - 1]) : null;
    res.json({ orders: page, nextCursor });
  } catch (error) {
    next(error);
  }
});

router.get('/:id', async (req, res, next) => {
  try {
    const order = await getOrder(req.params.id, req.user.customerId);
    if (!order) {
      res.status(404).json({ error: 'order not found' });
      return;
    }
    res.json(order);
  } catch (error) {
    next(error);
  }
});

module.exports = router;
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "`GET /orders` now accepts `limit` and `cursor` query parameters and returns a `nextCursor` next to the orders." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "`limit` defaults to 20 and is capped at 100." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The handler asks the database for `limit + 1` rows to find out whether another page exists." },
    { key: "c4", kind: "CLAIM", source: "gpt-4o", text: "An invalid `limit` such as `0` or `abc` is answered with HTTP 400." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "A malformed `cursor` makes `JSON.parse` throw; the error is passed to `next` and becomes a 500 response instead of a 400." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "Clients that expect the response body to be a bare array of orders will break." },
    { key: "s1", kind: "SMELL", source: "jshint", text: "W119: 'async functions' is only available in ES8 (use 'esversion: 8')." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "A malformed `cursor` currently ends up in `next(error)` and becomes a 500. Please catch decoding errors and answer 400, as for `limit`." },
    {
      system: "gpt-3.5",
      text: "Fetching `limit + 1` rows to compute `nextCursor` is a neat way to detect the last page. Two issues: an invalid `cursor` makes `JSON.parse` throw, which `next(error)` turns into a 500 instead of a 400; and the cursor is plain base64 JSON, so clients can craft arbitrary keys. Consider validating the decoded cursor's shape.",
    },
    { system: "codereviewer", text: "Why `limit + 1`?" },
    {
      system: "llama3",
      text: "The change adds pagination to the orders endpoint. It introduces `parseLimit`, `decodeCursor` and `encodeCursor` helpers. Suggestions:\n\n1. Move the helpers to a separate module.\n2. Add JSDoc comments.\n3. Consider using a validation library such as Joi.\n\nOverall the code is clean and readable.",
    },
    { system: "knn", text: "LGTM" },
    { system: "lstm", text: "this is not needed" },
  ],
  work: {
    ann1: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT" },
        c4: { code: "CORRECT" },
        i1: { code: "CORRECT" },
        i2: { code: "INCORRECT", errorType: "COMPREHENSION", note: "The old response was already an object `{ orders }`." },
      },
      ratings: {
        human: rate(5, 2, 2, ["i1"], ["c4"]),
        "gpt-3.5": rate(4, 3, 3, ["c3", "i1"], ["c1"]),
        codereviewer: rate(3, 1, 1, [], ["c3"]),
        llama3: rate(2, 2, 2, [], ["c1"]),
        knn: rate(1, 1, 1),
        lstm: rate(1, 1, 1),
      },
      filters: {
        "gpt-3.5": { highQuality: true, justification: "The 500 for a malformed cursor can be shown by a request test." },
        codereviewer: { highQuality: false, justification: "Asks for an explanation only." },
        llama3: { highQuality: false, justification: "Structural preferences, nothing to verify." },
        knn: { highQuality: false, justification: "An approval." },
        lstm: { highQuality: false, justification: "Not specific." },
      },
    },
    ann2: {
      claims: {
        c1: { code: "CORRECT" },
        c2: { code: "CORRECT" },
        c3: { code: "CORRECT", necessary: false },
        c4: { code: "CORRECT" },
        i1: { code: "UNVERIFIABLE", note: "Depends on the error middleware, which is not part of the pull request." },
        i2: { code: "INCORRECT", errorType: "COMPREHENSION" },
      },
    },
  },
};

const QUERIES: DemoChange = {
  externalId: "pr-118-db",
  filePath: "src/db/orders.js",
  language: "javascript",
  metadata: { repository: REPOSITORY },
  oldFile: source(`
const { pool } = require('./pool');

const COLUMNS = 'id, customer_id AS "customerId", total_cents AS "totalCents", status, created_at AS "createdAt"';

async function listOrders({ customerId }) {
  const { rows } = await pool.query(
    \`SELECT \${COLUMNS} FROM orders WHERE customer_id = $1 ORDER BY created_at DESC\`,
    [customerId],
  );
  return rows;
}

async function getOrder(id, customerId) {
  const { rows } = await pool.query(
    \`SELECT \${COLUMNS} FROM orders WHERE id = $1 AND customer_id = $2\`,
    [id, customerId],
  );
  return rows[0] ?? null;
}

module.exports = { listOrders, getOrder };
`),
  newFile: source(`
const { pool } = require('./pool');

const COLUMNS = 'id, customer_id AS "customerId", total_cents AS "totalCents", status, created_at AS "createdAt"';

/**
 * Orders of one customer, newest first, at most \`limit\` of them.
 * \`after\` is the { createdAt, id } of the last order of the previous page (keyset pagination).
 */
async function listOrders({ customerId, limit, after }) {
  const params = [customerId, limit];
  let keyset = '';
  if (after) {
    params.push(after.createdAt, after.id);
    keyset = 'AND (created_at, id) < ($3, $4)';
  }
  const { rows } = await pool.query(
    \`SELECT \${COLUMNS} FROM orders
     WHERE customer_id = $1 \${keyset}
     ORDER BY created_at DESC, id DESC
     LIMIT $2\`,
    params,
  );
  return rows;
}

async function getOrder(id, customerId) {
  const { rows } = await pool.query(
    \`SELECT \${COLUMNS} FROM orders WHERE id = $1 AND customer_id = $2\`,
    [id, customerId],
  );
  return rows[0] ?? null;
}

module.exports = { listOrders, getOrder };
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "`listOrders` now takes a `limit` and an optional `after` keyset, and the query ends with `LIMIT $2`." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "Orders are now sorted by `created_at DESC, id DESC`, so orders with the same timestamp come in a stable order." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The `after` values are interpolated directly into the SQL string." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "The row comparison `(created_at, id) < ($3, $4)` can use a composite index on `(customer_id, created_at, id)`, if one exists." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "Without a cursor, the query returns the same first orders as before, only limited in number." },
    { key: "s1", kind: "SMELL", source: "jshint", text: "W119: 'destructuring binding' is only available in ES6 (use 'esversion: 6')." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "Can we add an index on `(customer_id, created_at DESC, id DESC)` in a migration in this PR? Without it the keyset query still sorts all orders of large customers." },
    {
      system: "gpt-3.5",
      text: "Ordering by `created_at DESC, id DESC` together with the row comparison gives stable pages even when timestamps collide. For this to stay fast for large customers you will want a composite index on `(customer_id, created_at, id)`; consider adding a migration.",
    },
    { system: "codereviewer", text: "nit: move the keyset SQL into a constant." },
    { system: "magicoder", text: "The cursor values are interpolated into the SQL string, which allows SQL injection. Use query parameters instead." },
    { system: "knn", text: "Please add a test for this." },
  ],
  work: {
    ann1: { grades: { "gpt-3.5": 4, codereviewer: 1, magicoder: 1, knn: 1 } },
    ann2: {
      grades: { "gpt-3.5": 3, codereviewer: 1, magicoder: 2, knn: 1 },
      skipped: { COMMENT_FILTERING: "Whether the SQL injection remark holds depends on the pool helper, which is not in the pull request." },
    },
  },
};

const TESTS: DemoChange = {
  externalId: "pr-118-tests",
  filePath: "test/orders.test.js",
  language: "javascript",
  metadata: { repository: REPOSITORY },
  oldFile: source(`
const request = require('supertest');
const { createApp } = require('../src/app');
const { resetDatabase, insertOrders } = require('./helpers');

describe('GET /orders', () => {
  let app;

  beforeEach(async () => {
    await resetDatabase();
    app = createApp({ user: { customerId: 'c1' } });
  });

  it('lists the orders of the signed-in customer, newest first', async () => {
    await insertOrders([
      { id: 'o1', customerId: 'c1', createdAt: '2024-01-01T10:00:00Z' },
      { id: 'o2', customerId: 'c1', createdAt: '2024-01-02T10:00:00Z' },
      { id: 'o3', customerId: 'c2', createdAt: '2024-01-03T10:00:00Z' },
    ]);
    const response = await request(app).get('/orders');
    expect(response.status).toBe(200);
    expect(response.body.orders.map((o) => o.id)).toEqual(['o2', 'o1']);
  });

  it('returns 404 for an order of another customer', async () => {
    await insertOrders([{ id: 'o3', customerId: 'c2', createdAt: '2024-01-03T10:00:00Z' }]);
    const response = await request(app).get('/orders/o3');
    expect(response.status).toBe(404);
  });
});
`),
  newFile: source(`
const request = require('supertest');
const { createApp } = require('../src/app');
const { resetDatabase, insertOrders } = require('./helpers');

describe('GET /orders', () => {
  let app;

  beforeEach(async () => {
    await resetDatabase();
    app = createApp({ user: { customerId: 'c1' } });
  });

  it('lists the orders of the signed-in customer, newest first', async () => {
    await insertOrders([
      { id: 'o1', customerId: 'c1', createdAt: '2024-01-01T10:00:00Z' },
      { id: 'o2', customerId: 'c1', createdAt: '2024-01-02T10:00:00Z' },
      { id: 'o3', customerId: 'c2', createdAt: '2024-01-03T10:00:00Z' },
    ]);
    const response = await request(app).get('/orders');
    expect(response.status).toBe(200);
    expect(response.body.orders.map((o) => o.id)).toEqual(['o2', 'o1']);
    expect(response.body.nextCursor).toBeNull();
  });

  it('pages through the orders with limit and cursor', async () => {
    await insertOrders([
      { id: 'o1', customerId: 'c1', createdAt: '2024-01-01T10:00:00Z' },
      { id: 'o2', customerId: 'c1', createdAt: '2024-01-02T10:00:00Z' },
      { id: 'o3', customerId: 'c1', createdAt: '2024-01-03T10:00:00Z' },
    ]);
    const first = await request(app).get('/orders?limit=2');
    expect(first.body.orders.map((o) => o.id)).toEqual(['o3', 'o2']);
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const second = await request(app).get(\`/orders?limit=2&cursor=\${first.body.nextCursor}\`);
    expect(second.body.orders.map((o) => o.id)).toEqual(['o1']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('rejects a limit that is not a positive integer', async () => {
    const response = await request(app).get('/orders?limit=0');
    expect(response.status).toBe(400);
  });

  it('returns 404 for an order of another customer', async () => {
    await insertOrders([{ id: 'o3', customerId: 'c2', createdAt: '2024-01-03T10:00:00Z' }]);
    const response = await request(app).get('/orders/o3');
    expect(response.status).toBe(404);
  });
});
`),
  pseudoReferences: [
    { key: "c1", kind: "CLAIM", source: "gpt-4o", text: "A new test pages through three orders with `limit=2` and follows `nextCursor` to the last order." },
    { key: "c2", kind: "CLAIM", source: "gpt-4o", text: "A new test checks that `limit=0` is rejected with status 400." },
    { key: "c3", kind: "CLAIM", source: "gpt-4o", text: "The existing listing test now also expects `nextCursor` to be null." },
    { key: "i1", kind: "IMPLICATION", source: "gpt-4o", text: "No test covers a malformed cursor, so the 500 response for invalid cursors would go unnoticed." },
    { key: "i2", kind: "IMPLICATION", source: "gpt-4o", text: "The tests now run against a real PostgreSQL database." },
    { key: "s1", kind: "SMELL", source: "eslint", text: "max-lines-per-function: arrow function has too many lines (55). Maximum allowed is 50." },
  ],
  reviews: [
    { system: "human", isReference: true, text: "Please add a test for an invalid cursor; right now it would return 500 and nothing catches that." },
    {
      system: "gpt-3.5",
      text: "The new tests cover the happy path of pagination and the 400 for `limit=0`. Add a case with a malformed `cursor` (which currently yields a 500) and one where `limit` exceeds `MAX_LIMIT`, to pin down the capping.",
    },
    { system: "codereviewer", text: "nit: `expect(first.body.orders).toHaveLength(2)` reads better." },
    { system: "llama3", text: "The tests look good and cover pagination. Consider adding more tests for edge cases and using `describe.each` to reduce duplication. Great work!" },
    { system: "lstm", text: "remove the ` ; `" },
  ],
  work: {
    ann1: {
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Two specific missing test cases." },
        codereviewer: { highQuality: true, justification: "A concrete, checkable change to the assertion." },
        llama3: { highQuality: false, justification: "\"More edge cases\" without saying which." },
        lstm: { highQuality: false, justification: "Meaningless here." },
      },
    },
    ann2: {
      filters: {
        "gpt-3.5": { highQuality: true, justification: "Names the missing malformed-cursor test." },
        codereviewer: { highQuality: false, justification: "A style preference; no defect." },
        llama3: { highQuality: false, justification: "Vague." },
        lstm: { highQuality: false, justification: "Not actionable." },
      },
    },
  },
};

/** Lines of the new (RIGHT) or old (LEFT) file holding a snippet of code. */
const right = (change: DemoChange, snippet: string) => lineOf(change.newFile, snippet);
const left = (change: DemoChange, snippet: string) => lineOf(change.oldFile, snippet);

export const ORDERS_PAGINATION: DemoPullRequest = {
  externalId: "shop-api#118",
  repository: REPOSITORY,
  url: "https://github.com/acme/shop-api/pull/118",
  title: "Cursor pagination for GET /orders",
  description:
    "Large customers have thousands of orders and the endpoint returned all of them. This adds `limit` (default 20, at most 100) and an opaque `cursor` based on (created_at, id), and returns `nextCursor` for the next page.",
  changes: [ROUTES, QUERIES, TESTS],
  // A human reviewer (and the author's reply) and two review tools, as c-CRAB §5 compares them.
  comments: [
    {
      id: 1180001,
      change: ROUTES,
      side: "RIGHT",
      line: right(ROUTES, "return JSON.parse(Buffer.from(cursor"),
      body: "A malformed `cursor` makes this throw, and `next(error)` turns it into a 500. Please catch decoding errors and answer 400, as for `limit`.",
      system: "human",
      author: "maria-reviews",
    },
    { id: 1180002, change: ROUTES, side: "RIGHT", line: right(ROUTES, "return JSON.parse(Buffer.from(cursor"), body: "Good catch, I'll wrap the decoding and answer 400.", system: "human", author: "sam-dev", inReplyTo: 1180001 },
    {
      id: 1180003,
      change: QUERIES,
      side: "RIGHT",
      startLine: right(QUERIES, "ORDER BY created_at DESC, id DESC"),
      line: right(QUERIES, "LIMIT $2"),
      body: "Can we add an index on `(customer_id, created_at DESC, id DESC)` in a migration in this PR? Without it the keyset query still sorts all orders of large customers.",
      system: "human",
      author: "maria-reviews",
    },
    {
      id: 1180004,
      change: ROUTES,
      side: "RIGHT",
      startLine: right(ROUTES, "const limit = Number.parseInt(value, 10);"),
      line: right(ROUTES, "return Math.min(limit, MAX_LIMIT);"),
      body: "`parseLimit('10abc')` returns 10: `Number.parseInt` stops at the first non-digit. Check the value with `/^\\d+$/` first so that such limits are answered with 400.",
      system: "coderabbit",
      author: "coderabbitai[bot]",
      metadata: { severity: "minor", category: "robustness" },
    },
    { id: 1180005, change: TESTS, body: "No test sends a malformed `cursor`; the 500 it causes today would go unnoticed.", system: "coderabbit", author: "coderabbitai[bot]", metadata: { severity: "minor", category: "testing" } },
    {
      id: 1180006,
      change: QUERIES,
      side: "RIGHT",
      line: right(QUERIES, "params.push(after.createdAt, after.id);"),
      body: "If the decoded cursor has no `id` or `createdAt`, the row comparison with NULL is never true and the page comes back empty instead of failing. Validate the cursor's shape where it is decoded.",
      system: "claude-code (claude-sonnet-4.6)",
      author: "claude[bot]",
      metadata: { severity: "major" },
    },
    {
      id: 1180007,
      change: ROUTES,
      side: "LEFT",
      line: left(ROUTES, "const orders = await listOrders({ customerId: req.user.customerId });"),
      body: "This returned every order before; clients that relied on that now get only the first 20 without asking. Worth a line in the changelog.",
      system: "claude-code (claude-sonnet-4.6)",
      author: "claude[bot]",
      metadata: { severity: "minor" },
    },
  ],
};
