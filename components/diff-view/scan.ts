/**
 * highlight.js 11's scan of a text (`_highlight` in highlight.js/lib/core.js, 11.12) over the
 * grammars highlight.js has compiled, making the same emitter calls in the same order, so the
 * tokens are highlight.js's. What costs there and decides no token is done otherwise: the modes
 * entered are a stack (not an object created per mode), a mode's rules are matched by an
 * expression capturing only the groups that are read (Lean), the matched rule's groups are cut
 * out of the match only when read, a mode's end is tried at the match only (a sticky copy of its
 * expression, not a search of the rest of the text), text on lines the emitter does not keep is
 * not searched for keywords, and the scan stops once the emitter has its last line kept. Relevance (language detection) is not counted. A grammar with a
 * registered sub-language or a tokenizer of its own throws Unsupported (highlight.js then scans).
 */
import type { CompiledMode, CompiledScope, HLJSApi } from "highlight.js";

/** What the scan calls on its emitter (highlight.js's emitter API, without sub-languages). */
export interface ScanEmitter {
  addText(text: string): void;
  openNode(scope: string): void;
  closeNode(): void;
  startScope(scope: string): void;
  endScope(): void;
  finalize(): void;
  /** Whether every line `text` would go to is left out of the output: its keywords need no search. */
  leavesOut(text: string): boolean;
  /** Whether every line kept is written: the rest of the text needs no scan. */
  readonly complete: boolean;
}

class Unsupported extends Error {}

type Mode = CompiledMode & {
  "on:begin"?: Callback;
  "on:end"?: Callback;
  __beforeBegin?: Callback | null;
  returnBegin?: boolean;
  excludeBegin?: boolean;
  returnEnd?: boolean;
  excludeEnd?: boolean;
  skip?: boolean;
  endsParent?: boolean;
  endsWithParent?: boolean;
  subLanguage?: string | string[];
  keywords?: Record<string, [string, number]>;
};
type Callback = (match: RegExpExecArray, response: ModeResponse) => void;
type Rule = { rule?: Mode; type: "begin" | "end" | "illegal"; position: number };
interface MultiRegex {
  regexes: [Rule, RegExp | string][];
  matcherRe: RegExp;
  matchIndexes: Record<number, Rule>;
  lastIndex: number;
}
interface ResumableMultiRegex {
  regexIndex: number;
  lastIndex: number;
  count: number;
  getMatcher(index: number): MultiRegex;
}
type Language = Mode & { case_insensitive?: boolean; classNameAliases: Record<string, string>; __emitTokens?: unknown };

/** A match of a mode's rules: the rule's own groups come first once `full` is called, as highlight.js gives them to callbacks. */
interface Hit {
  raw: RegExpExecArray;
  group: number;
  rule: Rule;
  index: number;
  lexeme: string;
  spliced: boolean;
}

/** highlight.js's match as its callbacks and multi-class scopes read it (its rule's groups from 1). */
function full(hit: Hit): RegExpExecArray {
  if (!hit.spliced) {
    hit.raw.splice(0, hit.group);
    Object.assign(hit.raw, hit.rule);
    hit.spliced = true;
  }
  return hit.raw;
}

/** highlight.js's Response: a callback's way to ignore a match, and the mode's data. */
class ModeResponse {
  isMatchIgnored = false;
  constructor(readonly data: Record<string, unknown>) {}
  ignoreMatch(): void {
    this.isMatchIgnored = true;
  }
}

/**
 * A mode's combined expression with fewer captures: a rule whose groups nobody reads (no
 * callback, no scope per group, not an end) has its groups made non-capturing, which matches the
 * same text but builds a much shorter match array (highlight.js's Python top mode: 85 groups,
 * 30 rules). `rules[g]`: the rule whose wrapping group is g. Not built when an expression has
 * backreferences or named groups, whose numbering would change.
 */
interface Lean {
  re: RegExp;
  rules: (Rule | undefined)[];
}
const leans = new WeakMap<MultiRegex, Lean | null>();
/** A class, a named group, "(" or "(?", a backreference, or an escaped character (highlight.js's BACKREF_RE). */
const REGEX_PART = /\[(?:[^\\\]]|\\.)*\]|(\(\?<(?![=!])[^>]+>|\(\?'[^']+'|\\[1-9][0-9]*|\\k)|\(\??|\\./g;

function leanOf(m: MultiRegex): Lean | null {
  let lean = leans.get(m);
  if (lean !== undefined) return lean;
  lean = { re: m.matcherRe, rules: [undefined] };
  const sources: string[] = [];
  for (const [rule, re] of m.regexes) {
    const mode = rule.rule;
    const keep = rule.type === "end" || !!(mode && (mode.__beforeBegin || mode["on:begin"] || mode.beginScope?._multi));
    const source = typeof re === "string" ? re : re.source;
    let out = "";
    let groups = 0;
    let last = 0;
    for (const part of source.matchAll(REGEX_PART)) {
      // A named group or a backreference.
      if (part[1]) {
        lean = null;
        break;
      }
      if (part[0] !== "(") continue;
      if (keep) groups++;
      else {
        out += `${source.slice(last, part.index)}(?:`;
        last = part.index + 1;
      }
    }
    if (!lean) break;
    lean.rules.push(rule);
    for (let i = 0; i < groups; i++) lean.rules.push(undefined);
    sources.push(`(${out}${source.slice(last)})`);
  }
  if (lean) lean.re = new RegExp(sources.join("|"), m.matcherRe.flags);
  leans.set(m, lean);
  return lean;
}

/** MultiRegex.exec: the first of a mode's rules matching from `lastIndex`. */
function execMulti(m: MultiRegex, text: string): Hit | null {
  if (m.regexes.length === 0) return null;
  const lean = leanOf(m);
  const re = lean ? lean.re : m.matcherRe;
  re.lastIndex = m.lastIndex;
  const raw = re.exec(text);
  if (!raw) return null;
  let group = 1;
  while (raw[group] === undefined) group++;
  const rule = lean ? lean.rules[group] : m.matchIndexes[group];
  if (!rule) throw new Unsupported("a rule's groups are not where highlight.js counted them");
  return { raw, group, rule, index: raw.index, lexeme: raw[0], spliced: false };
}

/** ResumableMultiRegex.exec: after an ignored match, the rules after it at the same place or all of them one character on. */
function execResumable(matcher: ResumableMultiRegex, text: string): Hit | null {
  const m = matcher.getMatcher(matcher.regexIndex);
  m.lastIndex = matcher.lastIndex;
  let hit = execMulti(m, text);
  if (matcher.regexIndex !== 0 && !(hit && hit.index === matcher.lastIndex)) {
    const m2 = matcher.getMatcher(0);
    m2.lastIndex = matcher.lastIndex + 1;
    hit = execMulti(m2, text);
  }
  if (hit) {
    matcher.regexIndex += hit.rule.position + 1;
    if (matcher.regexIndex === matcher.count) matcher.regexIndex = 0;
  }
  return hit;
}

/** Sticky copies of modes' end expressions: `startsWith(endRe, rest)` is a match at the rest's start. */
const stickyEnds = new WeakMap<RegExp, RegExp>();
function endsHere(re: RegExp | undefined, rest: string): boolean {
  if (!re) return false;
  let sticky = stickyEnds.get(re);
  if (!sticky) stickyEnds.set(re, (sticky = new RegExp(re.source, `${re.flags.replace(/[gy]/g, "")}y`)));
  sticky.lastIndex = 0;
  return sticky.test(rest);
}

/** The compiled grammar of a language highlight.js knows (it compiles on first use). */
export function compiledLanguage(hljs: HLJSApi, name: string): Language {
  const language = hljs.getLanguage(name) as unknown as Language | undefined;
  if (!language) throw new Error(`Unknown language: "${name}"`);
  if (!language.isCompiled) hljs.highlight("", { language: name, ignoreIllegals: true });
  if (language.__emitTokens) throw new Unsupported("the grammar has its own tokenizer");
  return language;
}

/** Scans `code` as highlight.js does with ignoreIllegals, into `emitter`. `registered`: the names of the instance's languages. */
export function scan(language: Language, registered: ReadonlySet<string>, code: string, emitter: ScanEmitter): void {
  const aliases = language.classNameAliases;
  const stack: Mode[] = [language];
  /** Data a callback stored on an entered mode (not its grammar), as highlight.js's Response keeps it. */
  const ownData: (Record<string, unknown> | undefined)[] = [undefined];
  let top: Mode = language;
  let modeBuffer = "";
  let index = 0;
  let iterations = 0;
  let resumeScanAtSamePosition = false;
  let lastType: string | undefined;
  let lastIndex = -1;

  const emitKeyword = (keyword: string, scope: string) => {
    if (keyword === "") return;
    emitter.startScope(scope);
    emitter.addText(keyword);
    emitter.endScope();
  };

  function processKeywords(): void {
    if (!top.keywords || emitter.leavesOut(modeBuffer)) return emitter.addText(modeBuffer);
    const re = top.keywordPatternRe;
    let last = 0;
    re.lastIndex = 0;
    let match = re.exec(modeBuffer);
    let buf = "";
    while (match) {
      buf += modeBuffer.substring(last, match.index);
      const word = language.case_insensitive ? match[0].toLowerCase() : match[0];
      const data = top.keywords[word];
      if (data) {
        const [kind] = data;
        emitter.addText(buf);
        buf = "";
        if (kind.startsWith("_")) buf += match[0];
        else emitKeyword(match[0], aliases[kind] || kind);
      } else buf += match[0];
      last = re.lastIndex;
      match = re.exec(modeBuffer);
    }
    buf += modeBuffer.substring(last);
    emitter.addText(buf);
  }

  function processBuffer(): void {
    if (top.subLanguage != null) {
      if (modeBuffer !== "") {
        if (typeof top.subLanguage !== "string" || registered.has(top.subLanguage)) throw new Unsupported("a sub-language");
        emitter.addText(modeBuffer);
      }
    } else processKeywords();
    modeBuffer = "";
  }

  function emitMultiClass(scope: CompiledScope, hit: Hit): void {
    const match = full(hit);
    for (let i = 1; i <= match.length - 1; i++) {
      if (!scope._emit![i]) continue;
      const klass = aliases[scope[i]] || scope[i];
      const text = match[i];
      if (klass) emitKeyword(text, klass);
      else {
        modeBuffer = text;
        processKeywords();
        modeBuffer = "";
      }
    }
  }

  function startNewMode(mode: Mode, hit: Hit): void {
    if (mode.scope && typeof mode.scope === "string") emitter.openNode(aliases[mode.scope] || mode.scope);
    if (mode.beginScope) {
      if (mode.beginScope._wrap) {
        emitKeyword(modeBuffer, aliases[mode.beginScope._wrap] || mode.beginScope._wrap);
        modeBuffer = "";
      } else if (mode.beginScope._multi) {
        emitMultiClass(mode.beginScope, hit);
        modeBuffer = "";
      }
    }
    stack.push(mode);
    ownData.push(undefined);
    top = mode;
  }

  /** The depth of the mode a match ends (its own end, or a parent's for modes ending with it), or -1. */
  function endOfMode(depth: number, hit: Hit, rest: string): number {
    let mode = stack[depth];
    let matched = endsHere(mode.endRe, rest);
    if (matched && mode["on:end"]) {
      const response = new ModeResponse(ownData[depth] ?? (mode.data === undefined ? (ownData[depth] = {}) : mode.data));
      mode["on:end"](full(hit), response);
      if (response.isMatchIgnored) matched = false;
    }
    if (matched) {
      while (mode.endsParent && depth > 0) mode = stack[--depth];
      return depth;
    }
    if (mode.endsWithParent) {
      if (depth === 0) throw new Unsupported("the top mode ends with its parent");
      return endOfMode(depth - 1, hit, rest);
    }
    return -1;
  }

  function doIgnore(lexeme: string): number {
    if ((top.matcher as ResumableMultiRegex).regexIndex === 0) {
      modeBuffer += lexeme[0];
      return 1;
    }
    resumeScanAtSamePosition = true;
    return 0;
  }

  function doBeginMatch(hit: Hit): number {
    const lexeme = hit.lexeme;
    const newMode = hit.rule.rule!;
    if (newMode.data === undefined) newMode.data = {};
    if (newMode.__beforeBegin || newMode["on:begin"]) {
      const response = new ModeResponse(newMode.data);
      for (const callback of [newMode.__beforeBegin, newMode["on:begin"]]) {
        if (!callback) continue;
        callback(full(hit), response);
        if (response.isMatchIgnored) return doIgnore(lexeme);
      }
    }
    if (newMode.skip) modeBuffer += lexeme;
    else {
      if (newMode.excludeBegin) modeBuffer += lexeme;
      processBuffer();
      if (!newMode.returnBegin && !newMode.excludeBegin) modeBuffer = lexeme;
    }
    startNewMode(newMode, hit);
    return newMode.returnBegin ? 0 : lexeme.length;
  }

  function doEndMatch(hit: Hit): number {
    const lexeme = hit.lexeme;
    const depth = endOfMode(stack.length - 1, hit, code.substring(hit.index));
    if (depth < 0) return -1;
    const origin = top;
    if (top.endScope && top.endScope._wrap) {
      processBuffer();
      emitKeyword(lexeme, top.endScope._wrap);
    } else if (top.endScope && top.endScope._multi) {
      processBuffer();
      emitMultiClass(top.endScope, hit);
    } else if (origin.skip) modeBuffer += lexeme;
    else {
      if (!(origin.returnEnd || origin.excludeEnd)) modeBuffer += lexeme;
      processBuffer();
      if (origin.excludeEnd) modeBuffer = lexeme;
    }
    const endMode = stack[depth];
    do {
      if (top.scope) emitter.closeNode();
      stack.pop();
      ownData.pop();
      top = stack[stack.length - 1];
    } while (stack.length > depth);
    if (!top) throw new Unsupported("a match ended the top mode");
    if (endMode.starts) startNewMode(endMode.starts as Mode, hit);
    return origin.returnEnd ? 0 : lexeme.length;
  }

  function processLexeme(textBeforeMatch: string, hit: Hit): number {
    modeBuffer += textBeforeMatch;
    const lexeme = hit.lexeme;
    const type = hit.rule.type;
    // A zero-width end where a begin just matched: highlight.js keeps the character and moves on.
    if (lastType === "begin" && type === "end" && lastIndex === hit.index && lexeme === "") {
      modeBuffer += code.slice(hit.index, hit.index + 1);
      return 1;
    }
    lastType = type;
    lastIndex = hit.index;
    if (type === "begin") return doBeginMatch(hit);
    if (type === "end") {
      const processed = doEndMatch(hit);
      if (processed >= 0) return processed;
    }
    if (type === "illegal" && lexeme === "") {
      if (hit.index !== code.length) modeBuffer += "\n";
      return 1;
    }
    if (iterations > 100000 && iterations > hit.index * 3) throw new Unsupported("potential infinite loop");
    modeBuffer += lexeme;
    return lexeme.length;
  }

  (top.matcher as ResumableMultiRegex).regexIndex = 0;
  for (;;) {
    iterations++;
    const matcher = top.matcher as ResumableMultiRegex;
    if (resumeScanAtSamePosition) resumeScanAtSamePosition = false;
    else matcher.regexIndex = 0;
    matcher.lastIndex = index;
    const hit = execResumable(matcher, code);
    if (!hit) break;
    const processed = processLexeme(code.substring(index, hit.index), hit);
    index = hit.index + processed;
    if (emitter.complete) return;
  }
  modeBuffer += code.substring(index);
  processBuffer();
  emitter.finalize();
}
