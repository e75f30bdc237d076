#!/usr/bin/env node
// The scip-typescript reading's helper: reads the `index.scip` scip-typescript wrote
// for a tree and, for every call the TypeScript parser finds in the tree's files,
// the symbol of the occurrence at the call's name token and that symbol's definition.
//
//   node scip-calls.js --modules SCIP_NODE_MODULES --root ROOT --project DIR --index index.scip --out OUT.json
//   node scip-calls.js ... --out OUT.json --occurrences 1
//
// With `--occurrences 1` it writes, instead of sites, every occurrence of the tree's
// documents (any indexer's index: scip-typescript's or scip-python's), for the peer
// converters and the scip-python reading, which find the calls among them from the
// syntax tree (oracles/src/scip.rs): 1-based line and byte column of the occurrence's
// start, its symbol, whether it is a definition, and a definition's enclosing range
// (first and last line).
//
// - Sites are the tsc oracle's (oracles/tsc/README.md): `f()`, `a.b()`, `a?.b()`,
//   `a["b"]()` (the quote), `new X()` / `new ns.X()` (X), `super()`, a tagged template's
//   tag; found by walking the syntax tree of the pinned typescript scip-typescript
//   itself uses, never by reading text.
// - The callee: the occurrence whose range starts at the name token (the index gives
//   every reference's exact range); its symbol's definition occurrence is the target,
//   by its line (the name token of the declaration). A global symbol no document of
//   the tree defines is `outside`; a token with no occurrence, or a local symbol with
//   no definition, is left out (the index says nothing there).
'use strict';
const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i += 2) o[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const k of ['modules', 'root', 'project', 'index', 'out']) if (!o[k]) throw new Error('missing --' + k);
  o.occurrences = o.occurrences === '1';
  return o;
}
const opts = parseArgs(process.argv.slice(2));
const modules = path.resolve(opts.modules);
// The sites mode parses with the typescript scip-typescript runs on; the occurrences
// mode needs no parser.
const ts = opts.occurrences ? null : require(path.join(modules, 'typescript'));
const { scip } = require(path.join(modules, '@sourcegraph/scip-typescript/dist/src/scip.js'));
const root = fs.realpathSync(opts.root);
const project = fs.realpathSync(opts.project);
const index = scip.Index.deserializeBinary(fs.readFileSync(opts.index));

function inTree(relativePath) {
  const abs = path.resolve(project, relativePath);
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules')) return null;
  return rel.split(path.sep).join('/');
}

const DEFINITION = scip.SymbolRole.Definition;
// symbol -> {file, line} of its definition occurrence in the tree.
const definitions = new Map();
const documents = [];
for (const doc of index.documents) {
  const rel = inTree(doc.relative_path);
  if (rel === null) continue;
  const byStart = new Map();
  const locals = new Map();
  for (const occ of doc.occurrences) {
    const range = occ.range;
    const symbol = occ.symbol;
    if (occ.symbol_roles & DEFINITION) {
      const def = { file: rel, line: range[0] + 1 };
      if (symbol.startsWith('local ')) locals.set(symbol, def);
      else if (!definitions.has(symbol)) definitions.set(symbol, def);
    } else {
      byStart.set(range[0] + ':' + range[1], symbol);
    }
  }
  documents.push({ rel, byStart, locals });
}

// The byte column (1-based) of a UTF-16 character offset on one line.
function byteColumn(lineText, character) {
  return Buffer.byteLength(lineText.slice(0, character), 'utf8') + 1;
}

// Every occurrence of the tree's documents, in byte columns.
function occurrencesOfTree() {
  const out = [];
  for (const doc of index.documents) {
    const rel = inTree(doc.relative_path);
    if (rel === null) continue;
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    const occurrences = [];
    for (const occ of doc.occurrences) {
      const range = occ.range;
      const o = {
        line: range[0] + 1,
        column: byteColumn(lines[range[0]] || '', range[1]),
        symbol: occ.symbol,
        definition: (occ.symbol_roles & DEFINITION) !== 0,
      };
      const enclosing = occ.enclosing_range;
      if (enclosing && enclosing.length >= 3) {
        o.enclosing = [enclosing[0] + 1, (enclosing.length === 3 ? enclosing[0] : enclosing[2]) + 1];
      }
      occurrences.push(o);
    }
    out.push({ file: rel, occurrences });
  }
  out.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  return out;
}

if (opts.occurrences) {
  const tool = index.metadata && index.metadata.tool_info ? index.metadata.tool_info : null;
  fs.writeFileSync(opts.out, JSON.stringify({
    tool: tool ? tool.name + ' ' + tool.version : '',
    documents: occurrencesOfTree(),
  }));
  process.exit(0);
}

// The name token of a call, as the tsc oracle's table gives it, or null.
function nameToken(node) {
  let callee;
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) callee = node.expression;
  else if (ts.isTaggedTemplateExpression(node)) callee = node.tag;
  else return null;
  if (callee.kind === ts.SyntaxKind.SuperKeyword) return [callee, 'super'];
  if (ts.isIdentifier(callee)) return [callee, callee.text];
  if (ts.isPropertyAccessExpression(callee)) {
    const n = callee.name;
    return [n, ts.isPrivateIdentifier(n) ? n.text : n.text];
  }
  if (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)) {
    return [callee.argumentExpression, callee.argumentExpression.text];
  }
  return null;
}

const sites = [];
for (const { rel, byStart, locals } of documents) {
  const file = path.join(root, rel);
  const text = fs.readFileSync(file, 'utf8');
  const kind = /\.tsx$/.test(rel) ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(rel) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lines = text.split('\n');
  const stack = [source];
  while (stack.length) {
    const node = stack.pop();
    const named = nameToken(node);
    if (named) {
      const [token, name] = named;
      const pos = source.getLineAndCharacterOfPosition(token.getStart(source));
      const symbol = byStart.get(pos.line + ':' + pos.character);
      if (symbol !== undefined) {
        const lineText = lines[pos.line] || '';
        const column = Buffer.byteLength(lineText.slice(0, pos.character), 'utf8') + 1;
        let target = null;
        if (symbol.startsWith('local ')) {
          const def = locals.get(symbol);
          if (def) target = { kind: 'in_tree', file: def.file, line: def.line };
        } else {
          const def = definitions.get(symbol);
          target = def ? { kind: 'in_tree', file: def.file, line: def.line } : { kind: 'outside', symbol };
        }
        if (target) sites.push({ file: rel, line: pos.line + 1, column, name, targets: [target] });
      }
    }
    node.forEachChild((child) => { stack.push(child); });
  }
}
sites.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column);
fs.writeFileSync(opts.out, JSON.stringify({ scip_typescript: require(path.join(modules, '@sourcegraph/scip-typescript/package.json')).version, sites }));
