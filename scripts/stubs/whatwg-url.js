// Node's own URL for node-fetch 2's whatwg-url fallback (the real-cluster client bundle only).
module.exports = { URL: globalThis.URL, URLSearchParams: globalThis.URLSearchParams };
