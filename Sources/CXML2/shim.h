// libxml2 as seen from Swift: its push parser and SAX2 callbacks, for the CalDAV service's request bodies.
#ifndef B2C_CXML2_SHIM_H
#define B2C_CXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and then its encoding.h includes ICU's own headers (libicu-dev), whose
// UErrorCode differs from the one Foundation's _FoundationICU module defines: any Swift file importing both fails
// to build from a clean module cache ("not present in definition of 'enum UErrorCode'"). The reader takes UTF-8
// bodies only (DAVXML refuses a declaration naming any other encoding) and never touches an encoding handler,
// whose two last pointers are all this hides.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#endif
