#!/bin/sh
# onnx_hostile.sh - ONNX files condnet import refuses, each naming the node
# and what is wrong, written by tests/onnx/make_hostile.py (a small network
# with one fault each): sizes past the table of limits checked before any
# product (an input or a Reshape of 2^62+1 channels, 2^40 channels, 2^62×4×1
# maps), attributes onnx.checker refuses (given twice, of the wrong type,
# unknown, auto_pad VALID with pads, a Reshape to -7), Conv and pool faults
# (kernel_shape against the weights, a bias of two dimensions, groups that
# do not divide, a dilated pool, a pool without kernel_shape, a window all
# in the padding), and graphs condnet does not read (a broadcast Add, a
# Concat of other sizes, a Softmax inside, another operator, dropout or
# batch statistics in training mode, a node off the path, maps as the
# output). No model file is written for any. Needs Python with onnx and
# numpy (Debian python3-onnx): skipped (exit 77) without them.
. "$(dirname "$0")/lib.sh"
C=$CONDNET
SRC=$(cd "${top_srcdir:-.}" && pwd)
cd "$TMP" || exit 1

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import onnx, numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "no Python with onnx and numpy (Debian python3-onnx): skipped"
	exit 77
fi
check "make_hostile.py writes the files" "$PY" "$SRC/tests/onnx/make_hostile.py" h

# bad NAME PATTERN: import of h/NAME.onnx fails (status 1) with the message
bad() {
	expect_exit "$1" 1 "^condnet import: h/$1\.onnx: $2\$" "$C" import --onnx "h/$1.onnx" --save x.model
}
N="node 0 'conv' \(Conv\)"
M="more than condnet reads \(at most 10000000 channels, sides of 65536\)"
## sizes
bad dims_input_2e62p1 "$N: input 'x': maps of 4611686018427387905 channels × 1 × 1, $M"
bad dims_input_2e40 "$N: input 'x': maps of 1099511627776 channels × 6 × 6, $M"
bad dims_input_2e62x4x1 "$N: input 'x': maps of 4611686018427387904 channels × 4 × 1, $M"
bad dims_reshape_2e62p1 "node 0 'to_maps' \(Reshape\): shape value 4611686018427387905 at position 2, more than condnet reads \(at most 10000000\)"
## attributes
bad attr_twice "$N: attribute 'pads' given twice"
bad attr_auto_pad_int "$N: attribute 'auto_pad' is INT, expected STRING"
bad attr_unknown "$N: attribute 'stride' is not one of Conv's \(auto_pad, dilations, group, kernel_shape, pads, strides\)"
bad attr_valid_with_pads "$N: auto_pad VALID with pads \(1, 1, 1, 1\): the padding is given by the one or the other"
bad attr_reshape_minus7 "node 2 'reshape' \(Reshape\): shape value -7 at position 3, expected -1 \(inferred\), 0 \(copied\) or a size"
## Conv and pools
bad conv_kernel_shape_5 "$N: kernel_shape \(5, 5\), but its weights hold 3×3 kernels"
bad conv_bias_4x1 "$N: a bias of shape \(4, 1\), expected \(4,\): one value an output channel"
bad conv_group_3 "$N: group 3: the 1 input channels must be a multiple of it"
bad pool_dilated "node 2 'pool' \(MaxPool\): dilations \(2, 2\): condnet pools without dilation"
bad pool_no_kernel_shape "node 2 'pool' \(MaxPool\): no attribute 'kernel_shape' \(MaxPool needs the window's size\)"
bad pool_all_padding "node 2 'pool' \(AveragePool\): padding 2, 2, 2, 2 \(top, left, bottom, right\) on 2×2 windows: a window could lie all in the padding \(expected less than the window's side\)"
## graphs
bad add_broadcast "node 1 'add' \(Add\): adds 1×6×6 to 2×4×4: condnet adds tensors of one shape"
bad concat_sizes "node 1 'cat' \(Concat\): input 2 is 1×6×6, input 1 2×4×4: a Concat of channels needs maps of one size"
bad softmax_inside "node 0 'soft' \(Softmax\): a Softmax that does not compute the graph's output \(condnet reads one, over the classes, last\)"
bad other_operator "node 0 'resize' \(Resize\): not an operator condnet reads \(Conv, BatchNormalization, .*\)"
bad dropout_training "node 0 'drop' \(Dropout\): dropout in training mode \(export the model in evaluation mode\)"
bad batchnorm_training "node 0 'bn' \(BatchNormalization\): training_mode 1: batch statistics \(export the model in evaluation mode\)"
bad dead_branch "node 0 'unused' \(Relu\) is not on the path from the input 'x' to the output 'y'"
bad output_maps "node 1 'add' \(Add\): the graph ends in maps of 1×6×6, not in \(batch, classes\): a Flatten or a dense layer comes last"
check "no model file written by any" [ ! -e x.model ]
expect_exit "predict --onnx refuses as import does" 1 \
	"^condnet predict: h/attr_twice\.onnx: $N: attribute 'pads' given twice$" \
	"$C" predict --onnx h/attr_twice.onnx --data synthetic
finish
