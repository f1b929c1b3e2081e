// oidc-provider ships no type declarations; the test peer uses it loosely.
declare module 'oidc-provider' {
  // biome-ignore lint/suspicious/noExplicitAny: untyped third-party module
  const Provider: any;
  export default Provider;
}
