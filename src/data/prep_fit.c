/* prep_fit.c - a record's scale step fitted to a training set (its means
 * and scales) and applied to a set: the record (prep.c) applied to the row
 * store (dataset.c), which keeps a record of its own. */
#include "data/dataset.h"
#include "data/prep.h"

int prep_fit(Prep *p, const Dataset *train, int scale, Err *e)
{
	if (train->d != p->d)
		return err_set(e, "%s: %d features, but its preprocessing records %d", train->name,
		               train->d, p->d);
	if (scale < DATA_RAW || scale >= DATA_SCALES)
		return err_set(e, "unknown scale step %d", scale);
	p->scale = scale;
	if (scale == DATA_RAW) {
		for (int j = 0; j < p->d; j++) {
			p->mean[j] = 0;
			p->sd[j] = 1;
		}
		return 0;
	}
	dataset_feature_stats(train, scale == DATA_STANDARDIZE, p->mean, p->sd);
	return 0;
}

void prep_scale(const Prep *p, Dataset *ds)
{
	if (p->scale != DATA_RAW)
		dataset_apply_scale(ds, p->mean, p->sd);
}
