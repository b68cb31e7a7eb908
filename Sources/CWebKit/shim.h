// WebKitGTK 6.0: the GTK 4 build of WebKitGTK (webkit2gtk-4.1 is GTK 3 and must never be loaded with GTK 4).
#ifndef B2C_CWEBKIT_SHIM_H
#define B2C_CWEBKIT_SHIM_H
#include <webkit/webkit.h>
#endif
