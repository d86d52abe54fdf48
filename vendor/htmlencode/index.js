"use strict";
// oikos stand-in for htmlencode 0.0.4. matrix-bot-sdk calls only htmlEncode (replyText/replyNotice
// turn plain text into the HTML body); the original module called util._extend at load, which
// printed a DEP0060 deprecation warning on every start. This is plain-text <-> HTML, nothing more.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const NAMED = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Plain text as HTML text: every character that HTML gives meaning to becomes an entity. */
function htmlEncode(text) {
  if (text === null || text === undefined) return "";
  return String(text).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

function fromCodePoint(code) {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
    ? String.fromCodePoint(code)
    : "\ufffd";
}

/** HTML text back to plain text: the entities htmlEncode writes, other common named ones, and numeric ones. */
function htmlDecode(html) {
  if (html === null || html === undefined) return "";
  return String(html).replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (entity, body) => {
    if (body[0] === "#") {
      const hex = body[1] === "x" || body[1] === "X";
      return fromCodePoint(Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return Object.hasOwn(NAMED, body) ? NAMED[body] : entity;
  });
}

module.exports = { htmlEncode, htmlDecode };
