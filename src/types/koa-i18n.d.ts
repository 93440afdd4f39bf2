// koa-i18n ships no types; this declares the part the plugin uses (src/i18n/labelCatalogs.ts).
declare module 'koa-i18n' {
  interface KoaI18nOptions {
    directory: string;
    extension?: string;
    locales: string[];
    defaultLocale?: string;
    devMode?: boolean;
    modes?: Array<string | ((this: any) => string | undefined)>;
  }
  interface AppLike {
    context: object;
    request: object;
  }
  function koaI18n(app: AppLike, options: KoaI18nOptions): (ctx: any, next: () => Promise<unknown>) => Promise<unknown>;
  export default koaI18n;
}
