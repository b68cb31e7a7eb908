// libxml2 as seen from Swift: its push parser and SAX2 callbacks, for the CalDAV service's request bodies.
#ifndef B2C_CXML2_SHIM_H
#define B2C_CXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#endif
