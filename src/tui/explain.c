/* tui/explain.c - the screen's definitions and key help, written once (the
 * keys of the settings are their rows': session_setting.h). */
#include "tui/explain.h"

const Explain explain_terms[] = {
    {"κ(Ŵ⁽ⁱ⁾)",
     "The condition number of layer i's stacked matrix Ŵ⁽ⁱ⁾: its weights W⁽ⁱ⁾ with the bias "
     "row b⁽ⁱ⁾ appended, one column per neuron. κ is the largest singular value σ₁ divided by "
     "the smallest, over min(rows, columns) of them. The bias row is stacked because a "
     "neuron computes y·w + b: two neurons are redundant only when their weights and their "
     "biases are (nearly) proportional, so the column [w; b] is what describes a neuron."},
    {"κ = ∞",
     "The smallest singular value is 0: some column of Ŵ⁽ⁱ⁾ is a combination of the others. "
     "A fresh network has zero biases (b=0), so its bias row is zero and Ŵ⁽ⁱ⁾ has rank at "
     "most n(i−1); a layer with more neurons than inputs then has κ = ∞. Training moves "
     "the biases off zero. Under --wide zero every wide layer has κ = ∞ (see wide layer)."},
    {"σ₁/τ", "The threshold on the singular values: the largest, σ₁, divided by τ. κ > τ exactly "
             "when the smallest singular value lies below σ₁/τ."},
    {"p_i", "How many singular values of Ŵ⁽ⁱ⁾ lie below σ₁/τ (under --wide zero with a wide "
            "layer's missing ones): the neurons Algorithm 1 removes from layer i in its next "
            "iteration when κ > τ (line 4). The output layer's p is shown but never applied."},
    {"rank (SVD)",
     "The numerical rank from the singular values: how many are at least σ₁/τ, that is "
     "min(rows, columns) − p_i (n_i − p_i under --wide zero)."},
    {"rank (QR)",
     "The rank that column-pivoted QR estimates, Ŵ P = Q R: how many |r_jj| are at least "
     "|r_11|/τ. The pivot order ranks the neurons from most to least independent; "
     "Algorithm 3 keeps the first ones. Not measured while a network trains (-)."},
    {"! and r", "! marks κ > τ: the layer has p_i singular values below σ₁/τ. r marks a rank below "
                "n_i, even when κ ≤ τ: the layer has more neurons than independent columns, for "
                "instance more neurons than Ŵ⁽ⁱ⁾ has rows, n(i−1) + 1. Such a layer can be kept: "
                "κ compares only its min(rows, columns) singular values, so 32 neurons on 11 rows "
                "have 11, and when those are within τ, Algorithms 1 and 3 leave the layer whole "
                "although 21 of its neurons depend on the others (see wide layer)."},
    {"wide layer",
     "A layer with more neurons (or channels) than inputs + 1: Ŵ⁽ⁱ⁾ has more columns than "
     "rows, and columns − rows of its neurons are combinations of the others whatever its "
     "weights. As the paper reports such layers (--wide paper, the default), κ and p_i count "
     "only the min(rows, columns) singular values Ŵ⁽ⁱ⁾ has, so that surplus shows in "
     "neither: Algorithm 1 removes p_i, while Algorithm 3's pivoted QR, once κ > τ, keeps at "
     "most rows of them and so removes the surplus too. With --wide zero the missing "
     "singular values count as zeros: κ = ∞ and p_i includes them, and both algorithms "
     "remove the surplus and keep about the layer's rank, as for a layer with more rows "
     "than columns. The paper's MNIST networks read 200 coefficients with 300 or 600 "
     "neurons: their first layer is wide, and its κ in the paper is that of its 201 "
     "singular values."},
    {"sparkline",
     "σ_j/σ₁ for j = 1 to min(rows, columns), left to right, on a log scale shared by all "
     "layers: a full block is 1, the lowest block the bottom of the scale given in the "
     "column head. With more values than columns each block is the smallest of its group. "
     "The | stands before the first value below 1/τ: the p_i values right of it are those "
     "Algorithm 1 counts."},
    {"live", "The layer table shows κ of the network being trained right now (a training or an "
             "Algorithm-1 step), refreshed about every 0.3 s; after the operation it shows the "
             "current network again."},
    {"queued", "Changes of τ and η made while an operation runs: they wait and apply to the next "
               "operation, not to the running one; the header shows them pending, as 25→20."},
    {"τ and η", "τ is the threshold on κ that Algorithms 1 and 3 use. η is the number of epochs of "
                "every training of Algorithms 1 and 2, fractions allowed."},
    {"Σ n_i", "The neurons of layers 1 to m, the output layer's included, as the paper counts "
              "them."},
    {"test accuracy",
     "The share of the test set the network classifies correctly. Algorithm 1's history "
     "measures it after every iteration; the algorithms never look at it."},
    {"2ε_v − ε_tr",
     "Algorithm 2's criterion: the validation error plus the generalisation gap, ε_v + "
     "(ε_v − ε_tr), averaged over the q trainings of each β. The least wins; the bars "
     "show the least and largest of single trainings."},
    {"what-if",
     "The test accuracy of the network as it would be after the squeeze proposal, without "
     "and with compensation, measured on a copy before you decide; in brackets the "
     "agreement, the share of the test set on which it would answer the same class as now; "
     "beside it, as many neurons kept by the norm rule (largest outgoing weights) and by "
     "random orders."},
    {"schedule", "How the learning rate changes over a training, from the base rate lr: constant, "
                 "step:E:F (times F every E epochs), cosine:T (from lr down to 0 at epoch T, by "
                 "default the training's length) or plateau:P:F (times F after P epochs without a "
                 "lower validation loss; needs the validation split). S sets it; Algorithm 1's "
                 "trainings follow it too, a β sweep's trials keep the constant rate."},
    {"warm-up", "The rate rises linearly from 0 to the schedule's value over the first W epochs of "
                "every training."},
    {"early stopping",
     "With patience P (stop P), t holds out the validation split, measures it after every "
     "epoch, stops when its accuracy (ties: its loss) has not improved for P epochs and "
     "keeps the best epoch's weights: the epochs asked for are the cap, and the narration "
     "says how many ran and which was kept."},
    {"validation curve",
     "In the history view, the accuracy per epoch of the last t training: large dots on "
     "the validation split, small dots on the training part; a bar and a star mark the "
     "best epoch so far, the kept one when the training has ended. Without a validation "
     "split it shows the training accuracy alone."},
    {"compensation",
     "Not in the paper: after a squeeze, the next layer's weights and biases are refitted "
     "by least squares on training inputs, so its pre-activations change as little as "
     "possible."},
    {"regions and points",
     "The plane view colours each point of the plane by the class the network gives it, "
     "deep where the network is sure and pale where it is not (blank without colours); "
     "the training points are drawn over them as o, x, +, *, # and % for classes 1 to 6, "
     "the key under the regions."},
    {"neuron maps",
     "One neuron's activation over the plane, from blue (the most negative value of the "
     "layer's maps) through white (0) to orange (the most positive); the key over the maps "
     "gives the scale."},
    {"≈ and residual",
     "A neuron the squeeze drops, beside its best fit by the kept neurons' activations "
     "and a constant, by least squares on the training points: the refit of compensation "
     "works there. Its residual is the share of the neuron's variation over those points "
     "that the fit leaves; Ŵ's is the same for its column of Ŵ⁽ⁱ⁾, which the paper's QR "
     "ranks (a small Ŵ residual makes the pre-activations, not the activations, alike). "
     "The line above the fits gives their spread and what the next layer's refit leaves "
     "of what the dropped neurons send it."},
    {"network diagram",
     "View 8: a column per layer, the inputs left and the classes right. On data of two "
     "features every neuron is its map over the plane (blue −1, white 0, orange +1; a "
     "class's probability in its colour), otherwise a bar of its |r_jj|/|r_11| in the "
     "pivoted QR of its layer (green at least 1/τ). The lines are the strongest weights "
     "between the neurons drawn, orange for +, blue for −, heavier as |w| is larger, and "
     "all of the chosen neuron's. × marks the neurons the squeeze drops (its proposal's "
     "while one waits, else at τ on data in the plane); for a dropped neuron chosen, the "
     "kept neurons of its combination are lit, each with its coefficient (those of neurons "
     "a folded column hides counted under the diagram as +k more). A column too long "
     "for the screen shows the first neurons and how many more (and how many of them are "
     "dropped)."},
    {"by hand",
     "d removes the chosen neuron with its weights, i adds one (its incoming weights a fresh "
     "network's, its outgoing ones small, from a seed the log records), I adds a layer "
     "after the chosen one starting as the identity, D removes a layer by multiplying its "
     "weights into the next; every other weight stays. A neuron removed by hand is "
     "compared with the one Algorithm 3 would remove first, the last in the layer's "
     "pivoted-QR order. Each is undoable and logged, and replays bit for bit."},
    {"inputs of the plane",
     "f switches on x², y², xy, sin x and sin y beside x and y for data in the plane, as "
     "TensorFlow Playground has them: the first layer gets a row of small weights for each "
     "new input and keeps the others; the model file records them, and eval and predict "
     "make them from a point's x and y."},
    {"speed",
     "How fast the trainings on the screen run: from one epoch a second, each epoch's "
     "regions, neuron maps and diagram drawn, to full speed ({ slower, } faster); . trains "
     "one epoch more and pauses. Waiting between epochs changes nothing but time: the "
     "weights are those of full speed, bit for bit."},
};
const int explain_nterms = sizeof explain_terms / sizeof *explain_terms;

const Explain explain_keys[] = {
    {"s", "one Algorithm-1 iteration (the first trains the network from fresh weights)"},
    {"r", "Algorithm 1 until every κ ≤ τ"},
    {"t", "train N epochs (the cap under early stopping)"},
    {"b", "β sweep (Algorithm 2): asks for the β list and q"},
    {"A", "in the sweep view, adopt the pick: a fresh network of its widths"},
    {"z", "squeeze (Algorithm 3; a graph network's by channel groups): y applies, n "
          "refuses, a applies all, c toggles compensation, p lists the pivot order, Esc "
          "stops"},
    {"u", "undo the last structural change"},
    {"space", "pause or resume the running operation"},
    {"Esc", "cancel the running operation (its effect is rolled back)"},
    {"w", "save the network (asks before overwriting)"},
    {"o", "open a saved network"},
    {"e", "export the tables (.csv: CSV, else Markdown) and, beside them, every plot's data "
          "and a gnuplot script"},
    {"N", "write a caption into the session log, for lessons"},
    {"x", "explain the numbers; L the narration log"},
    {"Tab, 1-8", "views: layers, Algorithm 1, sweep, squeeze, spectrum, history, plane, "
                 "network"},
    {"↑ ↓ Enter", "layers and spectrum views: choose a layer; Enter shows its spectrum"},
    {"↑ ↓ ← → < >", "plane view (data of two features): ↑ ↓ the hidden layer whose neuron "
                    "maps show, ← → scroll them (Home End: to the ends), < > the panel shown "
                    "when they show one at a time; z shows a squeeze there as regions"},
    {"← → Home End", "Algorithm-1 view: scroll the iterations (also < >); ↑ ↓ the layers"},
    {"← →", "history view on a short screen: the next chart (iterations, κ against epochs, "
            "the validation curve)"},
    {"{ } .", "the speed of the trainings: { slower, } faster (one epoch a second to full "
              "speed), . one epoch more then a pause"},
    {"8", "the network diagram: ← → a layer, ↑ ↓ a neuron (Home End); d removes it, i adds "
          "one to its layer, D removes its layer, I adds one after it, f the inputs of the "
          "plane (x2, y2, xy, sinx, siny); z shows a squeeze's drops there"},
    {"q", "quit; with unsaved work it offers to save first"},
    {"lesson", "→ or Enter the next step (a squeeze: its proposal, then its decision), ← one "
               "back, to the same screen, space pause, q leave; c the whole caption when "
               "presentation mode folds a long one"},
};
const int explain_nkeys = sizeof explain_keys / sizeof *explain_keys;
