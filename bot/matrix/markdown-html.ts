import MarkdownIt from "markdown-it";

/**
 * Markdown (what the agent writes, and the backticks our own card lines use) as the HTML Matrix
 * clients show (org.matrix.custom.html), rendered by markdown-it. Safe by construction: HTML in the
 * source is text (escaped, never passed through), images are not rendered (Matrix wants mxc://
 * sources, and a remote image would fetch from the reader's client), only http(s) and mailto
 * addresses become links, and every tag emitted is in the spec's allowed set (strikethrough as
 * <del>). A single newline is a line break, as the plain body shows it.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true });
// Only addresses with a scheme become links: a host name in the text stays the text typed.
markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
markdown.disable("image");
const LINK_SCHEMES = /^(https?:|mailto:)/i;
markdown.validateLink = (url) => LINK_SCHEMES.test(url.trim());
markdown.renderer.rules.s_open = () => "<del>";
markdown.renderer.rules.s_close = () => "</del>";

/** A whole Markdown document (an agent message) as Matrix HTML. */
export function markdownToHtml(source: string): string {
  return markdown.render(source).trimEnd();
}

/** One line of card text: inline Markdown only (a leading `#` or `1.` stays text). */
export function inlineMarkdownToHtml(source: string): string {
  return markdown.renderInline(source);
}
