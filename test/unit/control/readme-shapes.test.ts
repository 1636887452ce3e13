import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inlineText, parseDocument, readableMarkdown } from '../../../src/core/sources/documents';

// Shapes of real READMEs: a centred logo block, an HTML title, badges, a table of contents marker.
const CENTRED = `<p align="center">
  <img src="docs/logo.svg" alt="Acme" width="200">
</p>
<h1 align="center">Acme Queue</h1>
<p align="center">
  <a href="https://ci.example.com"><img src="https://ci.example.com/badge.svg" alt="CI"></a>
</p>

Acme Queue is a <b>durable</b> job queue for Node.js &amp; Deno, with retries and <a href="docs/cron.md">cron</a> schedules.

## Install
`;

const TOC = `# fast-glob <!-- omit in toc -->

[![npm](https://img.shields.io/npm/v/fast-glob.svg)](https://npmjs.com/fast-glob) [![Downloads](https://img.shields.io/npm/dm/fast-glob.svg)](https://npmjs.com/fast-glob)

<!-- omit in toc -->
## Table of Contents

It's a very fast and efficient [glob](https://en.wikipedia.org/wiki/Glob_(programming)) library for [Node.js](https://nodejs.org).
`;

describe('index titles and summaries from real README shapes', () => {
  it('takes the HTML heading and the first prose, without tags, images or entities', () => {
    const doc = parseDocument('README.md', CENTRED, false);
    assert.equal(doc.title, 'Acme Queue');
    assert.equal(doc.summary, 'Acme Queue is a durable job queue for Node.js & Deno, with retries and cron schedules.');
    assert.equal(doc.body, CENTRED, 'the body sent is unchanged');
  });

  it('drops <!-- omit in toc --> from titles and skips badge lines', () => {
    const doc = parseDocument('README.md', TOC, false);
    assert.equal(doc.title, 'fast-glob');
    assert.equal(doc.summary, "It's a very fast and efficient glob library for Node.js.");
  });

  it('strips front-matter titles and summaries too, and keeps generics and line numbers', () => {
    const doc = parseDocument('docs/a.md', '---\ntitle: "<b>Queue</b> design <!-- draft -->"\nsummary: Uses <code>List<Job></code> per worker\n---\nBody\n', false);
    assert.equal(doc.title, 'Queue design');
    assert.equal(doc.summary, 'Uses List<Job> per worker');
    assert.equal(readableMarkdown('a\n<!-- x\ny -->\nb').split('\n').length, 4);
    assert.equal(inlineText('Map<String, List<Integer>> &lt;ok&gt;'), 'Map<String, List<Integer>> <ok>');
  });
});
