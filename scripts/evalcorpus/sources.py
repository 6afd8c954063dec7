"""What the corpus is made of: the pinned packages and the files picked from each."""

from __future__ import annotations

from dataclasses import dataclass, field

DEBIAN = "http://deb.debian.org/debian/"
NPM = "https://registry.npmjs.org/"


@dataclass(frozen=True)
class Package:
    """One pinned download: a Debian package (pool path) or an npm tarball."""

    url: str
    sha256: str
    kind: str  # "deb" or "tgz"


PACKAGES: dict[str, Package] = {
    "flask": Package(DEBIAN + "pool/main/f/flask/python-flask-doc_2.2.2-3_all.deb",
                     "0659f6a04b15fe3f907150cadc0399fe987c790e722e001b73f7e49fa5ecca15", "deb"),
    "requests": Package(DEBIAN + "pool/main/r/requests/python-requests-doc_2.28.1+dfsg-1_all.deb",
                        "499f6c095d09971ec3aa7b7ff5197eaf999476ce3ee61edfccac64fe3f9e520f", "deb"),
    "sphinx": Package(DEBIAN + "pool/main/s/sphinx/sphinx-doc_5.3.0-4_all.deb",
                      "1da3d08bb3a0bc82a4b8b8109410e223054bf5fb13904557ec8ea869046f65b4", "deb"),
    "celery": Package(DEBIAN + "pool/main/c/celery/python-celery-doc_5.2.6-5_all.deb",
                      "820d22b28d4f15c08305e21dbb04bdc626e3f6d3f2ec0c295d56e070febd7dc4", "deb"),
    "click": Package(DEBIAN + "pool/main/p/python-click/python-click-doc_8.1.3-2_all.deb",
                     "066092b0299a04c2588e5f2e9dc37a8d8ed7a4c4eeb7cd3175ebfcfce24a8943", "deb"),
    "mkdocs": Package(DEBIAN + "pool/main/p/python-mkdocs/mkdocs-doc_1.4.2+dfsg-2_all.deb",
                      "cc460d8a893ebc0aee62a1883693d833ff0b31af0475578299b90e0f793ee84f", "deb"),
    "rust": Package(DEBIAN + "pool/main/r/rustc/rust-doc_1.63.0+dfsg1-2_all.deb",
                    "96ef96fe6df87d939ca713bd7df3d15c2b778ccb892eca025c4ee504146f697b", "deb"),
    "gimp": Package(DEBIAN + "pool/main/g/gimp-help/gimp-help-en_2.10.34-2_all.deb",
                    "a2deec76763aaf2fcdd197bac0736cdcb0770ba993d48d233329e1c92b0bfe36", "deb"),
    "nut": Package(DEBIAN + "pool/main/n/nut/nut-doc_2.8.0-7_all.deb",
                   "d9b7ad56a6635a973a3b92cdb979755d5595264bcd0f5399886351cc9b994542", "deb"),
    "i3": Package(DEBIAN + "pool/main/i/i3-wm/i3-wm_4.22-2_amd64.deb",
                  "4fc8b8251065f490004aac7733c939f3b7ad48f9bdb8c6b773fec80a4cf0a603", "deb"),
    "bash": Package(DEBIAN + "pool/main/b/bash/bash-doc_5.2.15-2_all.deb",
                    "2c1a353f7004d14ba81db19c253b958d2dd9582027650739c530fd50376a9d8b", "deb"),
    "sqlite": Package(DEBIAN + "pool/main/s/sqlite3/sqlite3-doc_3.40.1-2+deb12u2_all.deb",
                      "466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2", "deb"),
    "go": Package(DEBIAN + "pool/main/g/golang-1.19/golang-1.19-doc_1.19.8-2_all.deb",
                  "eb1b1214aa50688486c7e041714be5cd0f986bdfd78dfc690d6ba3ade5e11952", "deb"),
    "graphviz": Package(DEBIAN + "pool/main/g/graphviz/graphviz-doc_2.42.2-7+deb12u1_all.deb",
                        "7239f310587c7ae772bdb3775eeddb2bd82a2c2c3c4326578b906a667c439474", "deb"),
    "npm": Package(NPM + "npm/-/npm-10.9.0.tgz",
                   "", "tgz"),
    # Man pages, rendered to plain text.
    "tmux": Package(DEBIAN + "pool/main/t/tmux/tmux_3.3a-3_amd64.deb",
                    "6bd1558face5e145d66d72c9557cbc7ff5ad66701e94dcd568e6daf081269018", "deb"),
    "cron": Package(DEBIAN + "pool/main/c/cron/cron_3.0pl1-162_amd64.deb",
                    "c1e12d9c993460e6396107668aa7ba79f8633decebb53aa6c38049584448be3f", "deb"),
    "logrotate": Package(DEBIAN + "pool/main/l/logrotate/logrotate_3.21.0-1_amd64.deb",
                         "4e6acd31f55af85b2f12bd61a636c84e19fc1d0f419540b71bbe8aba6985aa32", "deb"),
    "findutils": Package(DEBIAN + "pool/main/f/findutils/findutils_4.9.0-4_amd64.deb",
                         "5dd86bd0af4aa73f067dfd6b8339dd868f2dd84056aa79db29d1206d4fbc5e04", "deb"),
    "grep": Package(DEBIAN + "pool/main/g/grep/grep_3.8-5_amd64.deb",
                    "3264acea728df3c48a54f20e9291b965130e306b9d00adac76647049da7196df", "deb"),
    "strace": Package(DEBIAN + "pool/main/s/strace/strace_6.1-0.1_amd64.deb",
                      "1942d086a6244a1a9643489d3b0aa604ac44b88991d6c69217a63a193671bd4f", "deb"),
    "zstd": Package(DEBIAN + "pool/main/libz/libzstd/zstd_1.5.4+dfsg2-5_amd64.deb",
                    "3f6f833ae2fd533a0c9238310aef1148f51a64aa5d5f1278451ddc793d4d6d15", "deb"),
    "gzip": Package(DEBIAN + "pool/main/g/gzip/gzip_1.12-1_amd64.deb",
                    "eabec1dde2834f72540d7b93fc5df2625f52611c06d93d61f5cdb12480e0e6a3", "deb"),
    "screen": Package(DEBIAN + "pool/main/s/screen/screen_4.9.0-4_amd64.deb",
                      "c3b97223e12cb913b81f032e74322ea85456fa747b3cd9bc02eb17b2b990dfce", "deb"),
    "make": Package(DEBIAN + "pool/main/m/make-dfsg/make_4.3-4.1_amd64.deb",
                    "a1a83af8cbd854af887b72ad196b1f4af58387815e21ced1000253a116a46e2a", "deb"),
    "procps": Package(DEBIAN + "pool/main/p/procps/procps_4.0.2-3_amd64.deb",
                      "d9d0e75779cb79af869181f17b93c5c263a2b89cac6a0193c436160a4483ddc1", "deb"),
}


@dataclass(frozen=True)
class Pick:
    """Files taken from one package into one corpus folder, optionally converted."""

    package: str
    base: str  # folder inside the package
    patterns: tuple[str, ...]
    dest: str  # corpus folder
    generator: str  # what produced the files (for the breakdowns)
    convert: str = "copy"  # copy | gunzip | rst | man | docx
    exclude: tuple[str, ...] = ()
    rename: dict = field(default_factory=dict)


_SPHINX_SKIP = ("genindex.html", "search.html", "py-modindex.html", "404.html", "changes.html",
                "license.html", "_modules/*", "_sources/*", "_static/*", "*/genindex.html")
PICKS: tuple[Pick, ...] = (
    Pick("flask", "usr/share/doc/python-flask-doc/html/",
         ("*.html", "patterns/*.html", "tutorial/*.html", "deploying/*.html"), "flask", "sphinx",
         exclude=_SPHINX_SKIP + ("index.html", "api.html")),
    Pick("requests", "usr/share/doc/python-requests-doc/html/",
         ("user/*.html", "community/faq.html", "community/recommended.html", "community/support.html",
          "community/vulnerabilities.html", "dev/contributing.html"), "requests", "sphinx"),
    Pick("sphinx", "usr/share/doc/sphinx-doc/html/",
         ("usage/*.html", "usage/advanced/*.html", "usage/builders/*.html", "usage/extensions/*.html",
          "usage/restructuredtext/*.html", "tutorial/*.html", "man/*.html", "faq.html", "glossary.html"),
         "sphinx", "sphinx", exclude=("*/index.html", "usage/extensions/example_*.html")),
    Pick("celery", "usr/share/doc/python-celery-doc/html/_sources/",
         ("userguide/*.rst.txt", "getting-started/*.rst.txt", "faq.rst.txt", "glossary.rst.txt"),
         "celery", "reST source", convert="rst", exclude=("*/index.rst.txt",)),
    Pick("click", "usr/share/doc/python-click-doc/html/_sources/", ("*.rst.txt",), "click", "pandoc DOCX",
         convert="docx", exclude=("index.rst.txt", "changes.rst.txt", "license.rst.txt", "contrib.rst.txt",
                                  "api.rst.txt")),
    Pick("mkdocs", "usr/share/doc/mkdocs/html/",
         ("getting-started.html", "user-guide/*.html", "dev-guide/*.html"), "mkdocs", "MkDocs",
         exclude=("*/index.html",)),
    Pick("rust", "usr/share/doc/rust-doc/html/",
         ("rustc/*.html", "rustc/*/*.html", "rustdoc/*.html", "rustdoc/*/*.html"), "rust", "mdBook",
         exclude=("*/print.html", "rustc/platform-support/*", "*/404.html", "*/toc.html")),
    Pick("gimp", "usr/share/gimp/2.0/help/en/", ("gimp-tool-*.html",), "gimp", "DocBook XSL"),
    Pick("nut", "usr/share/doc/nut-doc/html/", ("FAQ.html",), "nut", "DocBook XSL"),
    Pick("nut", "usr/share/doc/nut-doc/pdf/", ("user-manual.pdf",), "nut", "dblatex PDF"),
    Pick("i3", "usr/share/doc/i3-wm/", ("*.html",), "i3", "AsciiDoc",
         exclude=("lib-i3test*.html", "refcard.html", "testsuite.html", "wsbar.html")),
    Pick("bash", "usr/share/doc/bash/", ("bashref.html",), "bash", "Texinfo"),
    Pick("sqlite", "usr/share/doc/sqlite3/",
         ("lang_*.html", "pragma.html", "datatype3.html", "wal.html", "json1.html", "fts5.html", "faq.html",
          "limits.html", "cli.html", "lockingv3.html", "autoinc.html", "foreignkeys.html", "isolation.html",
          "tempfiles.html", "atomiccommit.html", "backup.html", "uri.html", "withoutrowid.html",
          "gencol.html", "stricttables.html", "rtree.html", "windowfunctions.html", "quirks.html",
          "howtocorrupt.html", "whentouse.html", "appfileformat.html"),
         "sqlite", "SQLite (custom)", exclude=("lang.html", "lang_keywords.html")),
    Pick("go", "usr/share/doc/golang-1.19-doc/html/", ("go_mem.html", "asm.html"), "go", "Go (custom)"),
    Pick("graphviz", "usr/share/doc/graphviz/pdf/", ("dotguide.pdf.gz", "neatoguide.pdf.gz", "gvpr.1.pdf.gz"),
         "graphviz", "LaTeX/groff PDF", convert="gunzip"),
    Pick("npm", "package/docs/content/", ("commands/*.md", "configuring-npm/*.md", "using-npm/*.md"), "npm",
         "Markdown"),
    Pick("tmux", "usr/share/man/", ("man1/tmux.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("cron", "usr/share/man/", ("man5/crontab.5.gz", "man8/cron.8.gz"), "man", "man page (groff)",
         convert="man"),
    Pick("logrotate", "usr/share/man/", ("man8/logrotate.8.gz",), "man", "man page (groff)", convert="man"),
    Pick("findutils", "usr/share/man/", ("man1/find.1.gz", "man1/xargs.1.gz"), "man", "man page (groff)",
         convert="man"),
    Pick("grep", "usr/share/man/", ("man1/grep.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("strace", "usr/share/man/", ("man1/strace.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("zstd", "usr/share/man/", ("man1/zstd.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("gzip", "usr/share/man/", ("man1/gzip.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("screen", "usr/share/man/", ("man1/screen.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("make", "usr/share/man/", ("man1/make.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("procps", "usr/share/man/", ("man1/ps.1.gz", "man1/top.1.gz"), "man", "man page (groff)",
         convert="man"),
)
