#!/bin/sh
# check-translations.sh PO-DIR SOURCE-ROOT: fails when a file with translatable strings is missing from POTFILES.in,
# or when a language of LINGUAS has an untranslated or fuzzy message, or a message msgfmt --check refuses.
set -eu
po=$(cd "$1" && pwd) root=$(cd "$2" && pwd)
work=$(mktemp -d /tmp/b2c-po-check.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
status=0

# 1. POTFILES.in names every file with strings (paths in it are relative to meson-wrap/).
grep -v '^#' "$po/POTFILES.in" | sed '/^$/d; s|^\.\./||' | sort >"$work/listed"
{
  cd "$root"
  grep -rlE '\btrn?\("' Sources --include='*.swift' | grep -v '^Sources/TasksCore/Localization.swift$' || true
  grep -rl 'translatable="yes"' data --include='*.ui' || true
  ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml
} | sort >"$work/needed"
missing=$(comm -13 "$work/listed" "$work/needed")
if [ -n "$missing" ]; then
  echo "POTFILES.in misses files with translatable strings:" $missing >&2
  status=1
fi

# 2. Every language is complete against the current sources.
cd "$po/.."
xgettext --package-name=b2c-tasks --from-code=UTF-8 --add-comments=Translators: --keyword=tr --keyword=trn:1,2 \
  --keyword=_ --keyword=C_:1c,2 -f "$po/POTFILES.in" -o "$work/b2c-tasks.pot" 2>"$work/xgettext.log" \
  || { cat "$work/xgettext.log" >&2; exit 1; }
for language in $(grep -v '^#' "$po/LINGUAS"); do
  file="$po/$language.po"
  [ -f "$file" ] || { echo "$language: no $language.po" >&2; status=1; continue; }
  msgmerge --quiet --no-fuzzy-matching "$file" "$work/b2c-tasks.pot" -o "$work/$language.po"
  untranslated=$(msgattrib --untranslated --no-obsolete "$work/$language.po" | grep -c '^msgid ' || true)
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$work/$language.po" | grep -c '^msgid ' || true)
  # msgattrib prints the header entry too when anything is left.
  [ "$untranslated" -le 1 ] || { echo "$language: $((untranslated - 1)) untranslated messages" >&2; status=1; }
  [ "$fuzzy" -le 1 ] || { echo "$language: $((fuzzy - 1)) fuzzy messages" >&2; status=1; }
  msgfmt --check --output-file=/dev/null "$work/$language.po" || status=1
done
[ $status -ne 0 ] || echo "translations: POTFILES.in complete; $(grep -vc '^#' "$po/LINGUAS") languages complete"
exit $status
