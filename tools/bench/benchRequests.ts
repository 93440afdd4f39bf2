/**
 * What the benchmark's requests carry, the same in every tool that drives the plugin's server: the HTML
 * page's headers are a returning browser's, which sends back the language and theme cookies (and the
 * host's session) the first answer set, so pages do not set them again. Left to the tools: the paths they
 * ask for and how they drive them.
 */
export const HTML_REQUEST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  cookie: 'language=en; ui=standard; VUFIND_SESSION=3f9a0c1d2b4e5f60718293a4b5c6d7e8',
  'accept-language': 'en',
});
