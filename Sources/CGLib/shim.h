// GLib alone (its Unicode tables), for TasksCore, which links no UI library.
#ifndef B2C_CGLIB_SHIM_H
#define B2C_CGLIB_SHIM_H

#include <glib.h>

#endif
