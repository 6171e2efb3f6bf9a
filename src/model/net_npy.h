/* net_npy.h - a dense MLP as NumPy files W1.npy b1.npy W2.npy … (float32;
 * any float array is read). */
#ifndef CONDNET_NET_NPY_H
#define CONDNET_NET_NPY_H

#include "base/err.h"
#include "engine/act.h"
#include "engine/net.h"

/* Layout of weight files: NPY_KERAS = (in,out) as Keras stores Dense
 * kernels; NPY_TORCH = (out,in) as torch.nn.Linear stores them. */
enum { NPY_KERAS = 0, NPY_TORCH = 1 };

/* Loads W1.npy b1.npy … Wm.npy bm.npy from dir (m found by what exists),
 * checking that consecutive shapes agree. */
Net *net_npy_import(const char *dir, int layout, ActKind act, float act_a, Err *e);
int net_npy_export(const Net *net, const char *dir, int layout, Err *e);

#endif
