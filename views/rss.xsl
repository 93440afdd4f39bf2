<?xml version="1.0" encoding="UTF-8"?>
<!--
  Browser view of the versions feed (RSS 2.0 + OpenSearch + Atom paging links + Dublin Core).
  Served at /themes/root/assets/xsl/rss.xsl and referenced by the feed's <?xml-stylesheet?> PI.

  Language-neutral on purpose: every visible word comes from the feed itself (channel title and
  description, item fields, the atom:link titles), so one stylesheet serves en, pt-br and es.
  No script, no inline style, no disable-output-escaping: the page lives under a strict CSP.
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

  <xsl:template match="/">
    <xsl:apply-templates select="rss/channel"/>
  </xsl:template>

  <xsl:template match="channel">
    <!-- The interface language is the `lng` parameter of the channel link (…&lng=pt-br). -->
    <xsl:variable name="lang"
        select="substring-before(concat(substring-after(link, 'lng='), '&amp;'), '&amp;')"/>
    <html>
      <xsl:if test="string-length($lang) &gt; 0 and string-length($lang) &lt; 36">
        <xsl:attribute name="lang"><xsl:value-of select="$lang"/></xsl:attribute>
      </xsl:if>
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="title"/></title>
        <!-- The standard theme's stylesheet, found beside the catalog the channel link points into. -->
        <xsl:variable name="catalog" select="substring-before(link, '/Search/Versions')"/>
        <xsl:if test="starts-with($catalog, 'https://') or starts-with($catalog, 'http://')">
          <link rel="stylesheet" href="{$catalog}/themes/standard/assets/theme.css"/>
        </xsl:if>
      </head>
      <body>
        <header class="main page-intro">
          <h1 class="page-title">
            <xsl:call-template name="link-or-text">
              <xsl:with-param name="href" select="link"/>
              <xsl:with-param name="text" select="title"/>
            </xsl:call-template>
          </h1>
          <xsl:if test="normalize-space(description)">
            <p class="showing"><xsl:value-of select="description"/></p>
          </xsl:if>
        </header>
        <main class="main">
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
        </main>
        <xsl:variable name="paging"
            select="atom:link[@rel = 'first' or @rel = 'previous' or @rel = 'next' or @rel = 'last']
                             [normalize-space(@href) and normalize-space(@title)]"/>
        <xsl:if test="$paging">
          <nav class="main pagination">
            <ul class="pagination__pages">
              <!-- Fixed order, whatever the order in the feed. -->
              <xsl:apply-templates select="$paging[@rel = 'first']"/>
              <xsl:apply-templates select="$paging[@rel = 'previous']"/>
              <xsl:apply-templates select="$paging[@rel = 'next']"/>
              <xsl:apply-templates select="$paging[@rel = 'last']"/>
            </ul>
          </nav>
        </xsl:if>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="item">
    <li class="version">
      <article class="version__body">
        <h2 class="version__title">
          <xsl:call-template name="link-or-text">
            <xsl:with-param name="href" select="link"/>
            <xsl:with-param name="text">
              <xsl:choose>
                <xsl:when test="normalize-space(title)"><xsl:value-of select="title"/></xsl:when>
                <xsl:otherwise><xsl:value-of select="link"/></xsl:otherwise>
              </xsl:choose>
            </xsl:with-param>
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
        <xsl:if test="dc:format[normalize-space()]">
          <ul class="badges">
            <xsl:for-each select="dc:format[normalize-space()]">
              <li class="badge"><xsl:value-of select="."/></li>
            </xsl:for-each>
          </ul>
        </xsl:if>
        <xsl:if test="normalize-space(dc:date)">
          <p class="version__published">
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
      </article>
    </li>
  </xsl:template>

  <xsl:template match="atom:link">
    <li>
      <xsl:call-template name="link-or-text">
        <xsl:with-param name="href" select="@href"/>
        <xsl:with-param name="text" select="@title"/>
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
    <xsl:variable name="url" select="normalize-space($href)"/>
    <xsl:variable name="scheme"
        select="translate(substring-before($url, ':'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"/>
    <xsl:choose>
      <xsl:when test="$scheme = 'http' or $scheme = 'https'
                      or (starts-with($url, '/') and not(starts-with($url, '//')))">
        <a href="{$url}">
          <xsl:if test="string($rel)">
            <xsl:attribute name="rel"><xsl:value-of select="$rel"/></xsl:attribute>
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
