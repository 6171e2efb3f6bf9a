/* one_line.h - whether a text can stand inside one line of a file of
 * commands (a plan's shell lines, a gnuplot script): a line feed or a
 * carriage return would end the line there and start a command of its own,
 * so a path holding one is refused before anything is written. */
#ifndef CONDNET_ONE_LINE_H
#define CONDNET_ONE_LINE_H

#include "base/err.h"

/* The first byte of s that cannot stand inside a line: a control character
 * other than a tab (line feed, carriage return, vertical tab, form feed,
 * escape, …) or DEL; NULL when there is none. */
const char *one_line_bad(const char *s);

/* 0 when s can stand inside a line; else -1 and "WHAT: 'S' holds a line
 * feed (byte N), and WHERE holds one command a line", the text shown with
 * its control characters escaped (\n, \r, \xHH) so the message is one line
 * too. */
int one_line_check(const char *what, const char *s, const char *where, Err *e);

#endif
