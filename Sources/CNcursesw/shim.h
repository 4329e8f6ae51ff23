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
static inline int ad_color_pairs(void) { return COLOR_PAIRS; }
static inline int ad_a_bold(void) { return A_BOLD; }
static inline int ad_a_reverse(void) { return A_REVERSE; }
static inline int ad_a_underline(void) { return A_UNDERLINE; }
static inline int ad_a_dim(void) { return A_DIM; }
static inline int ad_a_normal(void) { return A_NORMAL; }
/* Draws n wide characters at (y, x) with attributes and a colour pair. */
static inline int ad_draw(int y, int x, const wchar_t *text, int n, int attrs, short pair) {
    attr_set((attr_t)attrs, pair, NULL);
    return mvaddnwstr(y, x, text, n);
}
static inline int ad_get_wch(wint_t *out) { return get_wch(out); }
static inline int ad_mouse_event(int *x, int *y, unsigned long *bstate) {
    MEVENT e;
    if (getmouse(&e) != OK) return ERR;
    *x = e.x; *y = e.y; *bstate = (unsigned long)e.bstate;
    return OK;
}
static inline unsigned long ad_button1_clicked(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED; }
static inline void ad_enable_mouse(void) { mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED, NULL); mouseinterval(0); }
#endif
