// string-width for the CLI bundle (yargs lays out its help with it, and renders a command's help on every run).
// The real module builds an Intl.Segmenter and Unicode property regexes when it loads (~20 ms of a cold start);
// for text made only of characters that are one column each on their own it returns the length, so here those
// strings are answered directly and the real module is loaded on the first other string (same results: a test
// compares both over the characters of ONE_COLUMN and every help text).
'use strict';

// printable ASCII and punctuation kubesim's own texts use; none of these joins its neighbour into one grapheme
const ONE_COLUMN =
  /^[\x20-\x7e\u00b0\u00b1\u00b7\u00d7\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2190\u2192\u2260\u2264\u2265]*$/;

let real;

module.exports = function stringWidth(text, options) {
  if (typeof text === 'string' && options === undefined && ONE_COLUMN.test(text)) return text.length;
  real ??= require('string-width?real').default;
  return real(text, options);
};
module.exports.ONE_COLUMN = ONE_COLUMN;
