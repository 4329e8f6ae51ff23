#ifndef AUTHDECK_CNCURSESW_SHIM_H
#define AUTHDECK_CNCURSESW_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

extern int wcwidth(wchar_t);
extern int wcswidth(const wchar_t *, size_t);

/* Function-like macros Swift cannot import. */
static inline int ad_color_pair(int n) { return COLOR_PAIR(n); }
static inline int ad_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int ad_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline WINDOW *ad_stdscr(void) { return stdscr; }
#endif
