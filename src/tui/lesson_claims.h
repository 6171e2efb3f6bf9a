/* tui/lesson_claims.h - a lesson's captions held to the state they speak
 * of. A caption that states a number says so in a line after it:
 *   #: 26 of the 128 hidden neurons are gone.
 *   #= removed=26 hidden_was=128
 * and the numbers of the caption that are not the state (a table of the
 * paper, a view's number) are listed as such:
 *   #~ 6
 * Every number of a caption must be one of the two, and every claim must
 * hold at its action: lesson_check_at measures it on a session that has
 * the lesson's actions before it applied, as the screen shows them.
 *
 * Claims (KEY=VALUE; a number holds to the digits it is written with):
 *   net=10-32-26-3      the widths       hidden=N  Σ hidden widths
 *   hidden_was=N        Σ hidden widths of the lesson's first network
 *   removed=N           hidden_was − hidden
 *   share=P             hidden as a percentage of hidden_was, rounded
 *   over=none|2,3       the layers with κ > τ; nover=N how many
 *   iter=N              Algorithm 1's last iteration; alg1_acc.R=X the test
 *                       accuracy after iteration R
 *   tau=X eta=X acc=X   τ, η, the test accuracy in percent
 *   n.L=N rows.L=N rank.L=N p.L=N kappa.L=X   of layer L (rows of Ŵ, the
 *                       numerical rank from the SVD, p_i, κ or inf)
 *   deficit.L=N         n_L minus that rank: neurons that depend on the others
 *   train=N test=N features=N classes=N   the data set
 *   steps=N             Adam steps of one training of η epochs
 *   steps.E=N           Adam steps of E epochs
 *   pick=B              the β sweep's pick
 *   rises=after-pick    the sweep's criterion grows at every β after the pick
 *   keep.L=N            the neurons layer L's squeeze proposal keeps; drop.L=N
 *                       those it removes
 *   whatif.L=QR,NORM,RANDOM   the screen's what-if line for layer L's
 *                       proposal (kept by QR, by norm, at random, in percent);
 *                       whatif_comp.L the same compensated
 *   compare.T=QR,NORM,RANDOM  `condnet squeeze --compare --tau T` on the
 *                       network (20 draws, seed 1), without compensation;
 *                       compare_comp.T with it
 *   regions.L=QR,COMP,RANDOM  layer L's proposal as the Plane view's panels
 *                       show it: the accuracies with pivoted QR's choice
 *                       removed, the same compensated, the median random
 *                       draw; random_comp.L=X the random draws' mean
 *                       compensated
 *   step=QR,COMP        Algorithm 1's last step as those panels: the network
 *                       before it keeping the widths it left, by pivoted QR,
 *                       without and with compensation
 *   fit.L=LO,HI,MEDIAN  layer L's dropped neurons fitted by the kept ones'
 *                       activations on the training points, as the Plane
 *                       view's maps show them: the residuals in percent
 *                       (after a squeeze or Algorithm 1's step, of the
 *                       network before it; else of the proposal at τ)
 *   refit.L=X           the share in percent of what they send layer L+1
 *                       that its refit leaves (alg3_combination.h) */
#ifndef CONDNET_TUI_LESSON_CLAIMS_H
#define CONDNET_TUI_LESSON_CLAIMS_H

#include <stddef.h>

#include "base/err.h"
#include "session/session.h"
#include "tui/lesson.h"

#include "tui/lesson_caption.h"

/* Checks the caption shown on screen sc of l (lesson.h: after sc.pos
 * actions, or a squeeze's proposal) on s, which holds the lesson's first
 * sc.pos actions: its numbers accounted for, its claims true, and each
 * claim and each thing it names (view N, flag r, the marks !, the what-if
 * line, a chart, the bars, the regions, maps or panels, a spectrum, a
 * combination) on the view the screen shows; a caption that speaks of
 * combinations states their residuals (fit.L or refit.L). A caption stays
 * on the screens after its own until the next, and holds on each. 0, or
 * -1 with a message naming the lesson line's position, the claim and what
 * the state says, or what the view does not show. */
int lesson_check_screen(const Lesson *l, LessonScreen sc, Session *s, Err *e);
/* The same for the screen after pos actions (no proposal). */
int lesson_check_at(const Lesson *l, int pos, Session *s, Err *e);

#endif
