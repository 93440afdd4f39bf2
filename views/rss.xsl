<?xml version="1.0" encoding="UTF-8"?>
<!--
  Browser view of the versions feed (RSS 2.0 + OpenSearch + Atom paging links + Dublin Core): the same
  page as the HTML view (views/layout.pug, views/versions.pug), drawn with the standard theme's stylesheet.
  Served at /themes/root/assets/xsl/rss.xsl and referenced by the feed's <?xml-stylesheet?> PI.

  What it shows comes from the feed (titles, authors, years, formats, totals, paging links and their
  titles) and from the part between the "generated" markers, which the plugin fills in when it serves this
  file (src/page/feedStylesheet.ts): the labels the feed does not carry ("Versions", "Published in", the
  format labels, the language names) in every offered language, the site's name and its home. As a file,
  that part is empty. The interface language is the `lng` of the channel link.

  The work's title: the feed names the requested record only by its id (channel title, opensearch:Query),
  so the heading takes the title of the item whose link is that record's, else the first item's.

  No script, no inline style, no disable-output-escaping: the page lives under a strict CSP, and nothing
  from the feed ever becomes markup or a non-web link.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:atom="http://www.w3.org/2005/Atom"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
    xmlns:slash="http://purl.org/rss/1.0/modules/slash/"
    exclude-result-prefixes="atom dc opensearch slash">

  <xsl:output method="html" encoding="UTF-8" indent="yes" doctype-system="about:legacy-compat"/>

  <xsl:strip-space elements="*"/>

  <!-- The interface language: the `lng` parameter of the channel link (…&lng=pt-br). -->
  <xsl:variable name="lang"
      select="substring-before(concat(substring-after(/rss/channel/link, 'lng='), '&amp;'), '&amp;')"/>
  <!-- The catalog's address: the channel link up to /Search/Versions. -->
  <xsl:variable name="catalog" select="substring-before(normalize-space(/rss/channel/link), '/Search/Versions')"/>
  <xsl:variable name="catalog-is-web" select="starts-with($catalog, 'https://') or starts-with($catalog, 'http://')"/>

  <!-- This feed's address around its `lng`, so the language switch can name the same feed in another language. -->
  <xsl:variable name="self" select="normalize-space(/rss/channel/atom:link[@rel = 'self']/@href)"/>
  <xsl:variable name="self-before-lng" select="substring-before($self, '&amp;lng=')"/>
  <xsl:variable name="self-rest" select="substring-after(substring-after($self, '&amp;lng='), '&amp;')"/>
  <!-- "&page=2" after the language, or nothing (substring(…, 1 div false()) is the empty string). -->
  <xsl:variable name="self-after-lng"
      select="concat(substring('&amp;', 1 div (string-length($self-rest) &gt; 0)), $self-rest)"/>

  <!-- Paging from the OpenSearch elements: the page shown and the last one. -->
  <xsl:variable name="per-page" select="number(/rss/channel/opensearch:itemsPerPage)"/>
  <xsl:variable name="page" select="floor(number(/rss/channel/opensearch:startIndex) div $per-page) + 1"/>
  <xsl:variable name="last-page">
    <xsl:variable name="pages" select="ceiling(number(/rss/channel/opensearch:totalResults) div $per-page)"/>
    <xsl:choose>
      <xsl:when test="$pages &gt;= 1"><xsl:value-of select="$pages"/></xsl:when>
      <xsl:otherwise>1</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="past-end" select="not(/rss/channel/item) and $page &gt; number($last-page)"/>

  <!-- The requested record's item, when it is on this page and its id needs no escaping in a link. -->
  <xsl:variable name="requested-link" select="concat($catalog, '/Record/', /rss/channel/opensearch:Query/@searchTerms)"/>
  <xsl:variable name="work-title">
    <xsl:choose>
      <xsl:when test="/rss/channel/item[normalize-space(link) = $requested-link]">
        <xsl:value-of select="/rss/channel/item[normalize-space(link) = $requested-link][1]/title"/>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="/rss/channel/item[1]/title"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>

  <!-- generated: begin -->
  <xsl:variable name="site-title"/>
  <xsl:variable name="home-href"/>
  <xsl:template name="label">
    <xsl:param name="key"/>
    <xsl:param name="page"/>
    <xsl:param name="last"/>
  </xsl:template>
  <xsl:template name="format-label">
    <xsl:param name="value"/>
    <xsl:value-of select="$value"/>
  </xsl:template>
  <xsl:template name="language-choices"/>
  <!-- generated: end -->

  <xsl:template match="/">
    <xsl:apply-templates select="rss/channel"/>
  </xsl:template>

  <xsl:template match="channel">
    <xsl:variable name="versions-label">
      <xsl:call-template name="label"><xsl:with-param name="key" select="'versions.label'"/></xsl:call-template>
    </xsl:variable>
    <!-- "Versions - <title of the work>", as on the HTML page; the channel title when no item names the work. -->
    <xsl:variable name="heading">
      <xsl:choose>
        <xsl:when test="normalize-space($work-title) and normalize-space($versions-label)">
          <xsl:value-of select="concat($versions-label, ' - ', $work-title)"/>
        </xsl:when>
        <xsl:otherwise><xsl:value-of select="title"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <html data-theme="standard">
      <xsl:if test="string-length($lang) &gt; 0 and string-length($lang) &lt; 36">
        <xsl:attribute name="lang"><xsl:value-of select="$lang"/></xsl:attribute>
      </xsl:if>
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>
          <xsl:value-of select="$heading"/>
          <xsl:if test="normalize-space($site-title)"> :: <xsl:value-of select="$site-title"/></xsl:if>
        </title>
        <!-- The standard theme's stylesheet, found beside the catalog the channel link points into. -->
        <xsl:if test="$catalog-is-web">
          <link rel="stylesheet" href="{$catalog}/themes/standard/assets/theme.css"/>
        </xsl:if>
      </head>
      <body class="feed-view">
        <a class="skip-link" href="#main">
          <xsl:call-template name="label"><xsl:with-param name="key" select="'site.skipToContent'"/></xsl:call-template>
        </a>
        <header class="site-header">
          <div class="site-header__inner">
            <xsl:if test="normalize-space($site-title)">
              <p class="site-title">
                <xsl:call-template name="link-or-text">
                  <xsl:with-param name="href" select="$home-href"/>
                  <xsl:with-param name="text" select="$site-title"/>
                  <xsl:with-param name="class" select="'site-title__link'"/>
                </xsl:call-template>
              </p>
            </xsl:if>
            <xsl:if test="$self-before-lng and (starts-with($self, 'https://') or starts-with($self, 'http://'))">
              <nav class="language-switch">
                <xsl:attribute name="aria-label">
                  <xsl:call-template name="label"><xsl:with-param name="key" select="'language.switchLabel'"/></xsl:call-template>
                </xsl:attribute>
                <ul class="language-switch__list">
                  <xsl:call-template name="language-choices"/>
                </ul>
              </nav>
            </xsl:if>
          </div>
        </header>
        <main id="main" class="main" tabindex="-1">
          <div class="page-intro">
            <h1 class="page-title"><xsl:value-of select="$heading"/></h1>
            <div class="page-intro__meta">
              <xsl:choose>
                <xsl:when test="$past-end">
                  <p class="past-end">
                    <xsl:call-template name="label">
                      <xsl:with-param name="key" select="'paging.pastEnd'"/>
                      <xsl:with-param name="page" select="$page"/>
                      <xsl:with-param name="last" select="$last-page"/>
                    </xsl:call-template>
                    <xsl:text> </xsl:text>
                    <xsl:call-template name="link-or-text">
                      <xsl:with-param name="href" select="atom:link[@rel = 'last']/@href"/>
                      <xsl:with-param name="text" select="atom:link[@rel = 'last']/@title"/>
                      <xsl:with-param name="class" select="'past-end__link'"/>
                    </xsl:call-template>
                  </p>
                </xsl:when>
                <xsl:when test="normalize-space(description)">
                  <p class="showing"><xsl:value-of select="description"/></p>
                </xsl:when>
              </xsl:choose>
              <!-- The channel's own title, linking to the list as an HTML page. -->
              <xsl:if test="normalize-space(title)">
                <p class="feed-view__page-link">
                  <xsl:call-template name="link-or-text">
                    <xsl:with-param name="href" select="link"/>
                    <xsl:with-param name="text" select="title"/>
                  </xsl:call-template>
                </p>
              </xsl:if>
            </div>
          </div>
          <xsl:if test="item">
            <!-- Number the items from the feed's offset (startIndex 50 on page 2 starts at 51). -->
            <xsl:variable name="offset" select="number(opensearch:startIndex)"/>
            <ol class="versions">
              <xsl:attribute name="start">
                <xsl:choose>
                  <xsl:when test="$offset &gt;= 0"><xsl:value-of select="floor($offset) + 1"/></xsl:when>
                  <xsl:otherwise>1</xsl:otherwise>
                </xsl:choose>
              </xsl:attribute>
              <xsl:apply-templates select="item"/>
            </ol>
          </xsl:if>
          <xsl:variable name="paging"
              select="atom:link[@rel = 'first' or @rel = 'previous' or @rel = 'next' or @rel = 'last']
                               [normalize-space(@href) and normalize-space(@title)]"/>
          <xsl:if test="$paging">
            <nav class="pagination pagination--feed">
              <xsl:attribute name="aria-label">
                <xsl:call-template name="label"><xsl:with-param name="key" select="'paging.label'"/></xsl:call-template>
              </xsl:attribute>
              <ul class="pagination__steps">
                <!-- Fixed order, whatever the order in the feed. -->
                <xsl:apply-templates select="$paging[@rel = 'first']"/>
                <xsl:apply-templates select="$paging[@rel = 'previous']"/>
                <xsl:apply-templates select="$paging[@rel = 'next']"/>
                <xsl:apply-templates select="$paging[@rel = 'last']"/>
              </ul>
            </nav>
          </xsl:if>
        </main>
      </body>
    </html>
  </xsl:template>

  <!--
    One item as the page's entry (views/includes/version-entry.pug): the same fields in the same order,
    but the source and the full-text links, which the feed does not carry. test/page/versionEntryViews.test.ts
    compares the two.
  -->
  <xsl:template match="item">
    <xsl:variable name="requested" select="normalize-space(link) = $requested-link"/>
    <li class="version">
      <xsl:if test="$requested">
        <xsl:attribute name="class">version version--requested</xsl:attribute>
      </xsl:if>
      <article class="version__body">
        <xsl:if test="$requested">
          <div class="version__flag">
            <xsl:call-template name="label"><xsl:with-param name="key" select="'record.requested'"/></xsl:call-template>
          </div>
        </xsl:if>
        <h2 class="version__title">
          <xsl:call-template name="link-or-text">
            <xsl:with-param name="href" select="link"/>
            <xsl:with-param name="text">
              <xsl:choose>
                <xsl:when test="normalize-space(title)"><xsl:value-of select="title"/></xsl:when>
                <xsl:otherwise><xsl:value-of select="link"/></xsl:otherwise>
              </xsl:choose>
            </xsl:with-param>
            <xsl:with-param name="current" select="$requested"/>
          </xsl:call-template>
        </h2>
        <xsl:choose>
          <xsl:when test="normalize-space(author)">
            <p class="version__author"><xsl:value-of select="author"/></p>
          </xsl:when>
          <xsl:when test="normalize-space(dc:creator)">
            <p class="version__author"><xsl:value-of select="dc:creator"/></p>
          </xsl:when>
        </xsl:choose>
        <xsl:if test="normalize-space(dc:date) or dc:format[normalize-space()]">
          <div class="version__meta">
            <xsl:if test="normalize-space(dc:date)">
              <p class="version__published">
                <xsl:call-template name="label"><xsl:with-param name="key" select="'record.publishedIn'"/></xsl:call-template>
                <xsl:text> </xsl:text>
                <time>
                  <!-- A four-digit year is a valid datetime value; anything else stays plain text. -->
                  <xsl:if test="string-length(normalize-space(dc:date)) = 4
                                and translate(normalize-space(dc:date), '0123456789', '') = ''">
                    <xsl:attribute name="datetime"><xsl:value-of select="normalize-space(dc:date)"/></xsl:attribute>
                  </xsl:if>
                  <xsl:value-of select="dc:date"/>
                </time>
              </p>
            </xsl:if>
            <xsl:if test="dc:format[normalize-space()]">
              <ul class="badges">
                <xsl:for-each select="dc:format[normalize-space()]">
                  <li class="badge">
                    <xsl:call-template name="format-label"><xsl:with-param name="value" select="."/></xsl:call-template>
                  </li>
                </xsl:for-each>
              </ul>
            </xsl:if>
          </div>
        </xsl:if>
      </article>
    </li>
  </xsl:template>

  <xsl:template match="atom:link">
    <li>
      <xsl:call-template name="link-or-text">
        <xsl:with-param name="href" select="@href"/>
        <xsl:with-param name="text" select="@title"/>
        <xsl:with-param name="class" select="concat('pagination__step pagination__step--', @rel)"/>
        <xsl:with-param name="rel">
          <xsl:choose>
            <xsl:when test="@rel = 'previous'">prev</xsl:when>
            <xsl:when test="@rel = 'next'">next</xsl:when>
          </xsl:choose>
        </xsl:with-param>
      </xsl:call-template>
    </li>
  </xsl:template>

  <!--
    A link when the address is an http(s) URL or a path on this site, plain text otherwise
    (never a javascript: or data: link, whatever the feed holds).
  -->
  <xsl:template name="link-or-text">
    <xsl:param name="href"/>
    <xsl:param name="text"/>
    <xsl:param name="rel"/>
    <xsl:param name="class"/>
    <xsl:param name="current" select="false()"/>
    <xsl:variable name="url" select="normalize-space($href)"/>
    <xsl:variable name="scheme"
        select="translate(substring-before($url, ':'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"/>
    <xsl:choose>
      <xsl:when test="$scheme = 'http' or $scheme = 'https'
                      or (starts-with($url, '/') and not(starts-with($url, '//')))">
        <a href="{$url}">
          <xsl:if test="string($class)">
            <xsl:attribute name="class"><xsl:value-of select="$class"/></xsl:attribute>
          </xsl:if>
          <xsl:if test="string($rel)">
            <xsl:attribute name="rel"><xsl:value-of select="$rel"/></xsl:attribute>
          </xsl:if>
          <xsl:if test="$current">
            <xsl:attribute name="aria-current">true</xsl:attribute>
          </xsl:if>
          <xsl:value-of select="$text"/>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$text"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
