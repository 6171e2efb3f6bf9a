# accuracy against the fraction of hidden neurons removed, by criterion
set terminal pngcairo size 1120,880 font ',10'
set output 'mnist.png'
set datafile missing '?'
set key bottom left
set grid
set xlabel 'fraction of hidden neurons removed'
set ylabel 'test accuracy (%)'
set xrange [0:*]
set multiplot layout 2,2 title 'mnist: mnist.model'
set title 'right after the squeeze'
plot 'mnist.dat' using 1:3 with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \
     '' using 1:4 with linespoints pt 5 lw 2 title 'norm', \
     '' using 1:5:6 with yerrorlines pt 9 lw 1 \
        title 'random, mean ± sd', \
     96.82 with lines dt 2 lc 'gray' title 'before squeezing'
set title 'squeezed with compensation'
plot 'mnist.dat' using 1:7 with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \
     '' using 1:8 with linespoints pt 5 lw 2 title 'norm', \
     '' using 1:9:10 with yerrorlines pt 9 lw 1 \
        title 'random, mean ± sd', \
     96.82 with lines dt 2 lc 'gray' title 'before squeezing'
set title 'squeezed, then retrained'
plot 'mnist.dat' using 1:11 with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \
     '' using 1:12 with linespoints pt 5 lw 2 title 'norm', \
     '' using 1:13:14 with yerrorlines pt 9 lw 1 \
        title 'random, mean ± sd', \
     96.82 with lines dt 2 lc 'gray' title 'before squeezing'
set title 'squeezed with compensation, then retrained'
plot 'mnist.dat' using 1:15 with linespoints pt 7 lw 2 title 'QR (Algorithm 3)', \
     '' using 1:16 with linespoints pt 5 lw 2 title 'norm', \
     '' using 1:17:18 with yerrorlines pt 9 lw 1 \
        title 'random, mean ± sd', \
     96.82 with lines dt 2 lc 'gray' title 'before squeezing'
unset multiplot
