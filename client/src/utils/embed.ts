/**
 * The embed snippet and the viewer's address, from events/embed-snippet.ts: the server's oEmbed
 * answer (/oembed) gives the same HTML the share menus copy.
 */
export { EMBED_MIN_HEIGHT_PX, embedSnippet, viewerUrl, type EmbedOptions } from '../../../events/embed-snippet';
