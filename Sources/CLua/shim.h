#include <lua5.4/lua.h>
