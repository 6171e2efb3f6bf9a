/* list.c - the one splitter of comma-separated lists. */
#include "base/list.h"

#include <string.h>

int list_next(const char **s, const char **item, size_t *len, int *n, const char *what,
              const char *list, Err *e)
{
	if (!*s)
		return 0;
	const char *c = strchr(*s, ',');
	*item = *s;
	*len = c ? (size_t)(c - *s) : strlen(*s);
	*s = c ? c + 1 : NULL;
	++*n;
	if (*len == 0) {
		const char *sfx = *n % 10 == 1 && *n != 11   ? "st"
		                  : *n % 10 == 2 && *n != 12 ? "nd"
		                  : *n % 10 == 3 && *n != 13 ? "rd"
		                                             : "th";
		return err_set(e, "%s: '%s' has an empty element (the %d%s): a comma too many?",
		               what, list, *n, sfx);
	}
	return 1;
}
