/* list.h - the comma-separated lists options and logs take (--tau 3,5,
 * --stages alg1,alg2, --data csv:TRAIN,TEST, --keep-counts 8,6,4): one
 * splitter, so that every list refuses an empty element ("30,,10", ",5",
 * "5,") the same way instead of skipping it. */
#ifndef CONDNET_LIST_H
#define CONDNET_LIST_H

#include <stddef.h>

#include "base/err.h"

/* The next element of the list at *s: its start in *item and its length in
 * *len (not NUL-terminated), *s moved past it and its comma. 1; 0 after the
 * last element (*s NULL); -1 when the element is empty, with "WHAT: 'LIST'
 * has an empty element (the Nth): ..." in e (what names the option, list
 * is the whole list, n counts the elements read before). An empty list is
 * one empty element. Start with *s the list and n 0. */
int list_next(const char **s, const char **item, size_t *len, int *n, const char *what,
              const char *list, Err *e);

#endif
