# gnuplot synthetic.gp: the screen's charts for slides, as PNG and PDF beside it
# (gnuplot's cairo terminals, 16:9)
set encoding utf8
set grid
set border lw 1.5
set linetype 1 lc rgb '#1f5fbf'
set linetype 2 lc rgb '#d62728'
set linetype 3 lc rgb '#2ca02c'
set linetype 4 lc rgb '#8c4bb0'
set linetype 5 lc rgb '#e07000'
set linetype 6 lc rgb '#6b4423'
set linetype 7 lc rgb '#d0358f'
set linetype 8 lc rgb '#1a9aa0'
set linetype cycle 8
set terminal pngcairo size 1600,900 enhanced font 'DejaVu Sans,22' linewidth 2
set output 'synthetic-spectra.png'
set title 'σ_j / σ_1 of every layer; the line is 1/τ = 0.1 (τ = 10)'
set logscale y
set yrange [0.01:3.16228]
set xlabel 'j (largest first)'
set ylabel 'σ_j / σ_1'
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 0.1 with lines dashtype 2 lw 3 lc rgb 'black' title '1/τ', \
  for [i=0:4] 'synthetic-spectra.dat' index i using 1:($2 > 0 ? $2 : 1/0) with linespoints pt 7 ps 0.8 lw 3 lt i+1 title sprintf('layer %d', i+1)
unset offsets
set output 'synthetic-alg1-kappa.png'
set title 'κ(Ŵ^{(i)}) of every layer per Algorithm-1 iteration'
set logscale y
set yrange [0.1:10000]
set xrange [-0.3:7.3]
set xlabel 'iteration'
set ylabel 'κ'
set xtics 1
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 'synthetic-alg1.dat' using ($1 - 0.5):2:(1):(0) with vectors nohead dashtype 2 lw 3 lc rgb 'black' title 'τ of the iteration', \
  for [i=1:5] '' using 1:(column(6+i)) with linespoints pt 7 lw 3 lt i title sprintf('layer %d', i)
unset logscale y
set autoscale y
set output 'synthetic-alg1-size.png'
set title 'Σ n_i and the test accuracy per Algorithm-1 iteration'
set ylabel 'Σ n_i'
set y2label 'test accuracy (%)'
set y2tics
set ytics nomirror
set y2range [95:100]
set key inside bottom left opaque box
plot 'synthetic-alg1.dat' using 1:4 with linespoints pt 7 lw 2 title 'Σ n_i', '' using 1:5 axes x1y2 with linespoints pt 5 lw 2 title 'test accuracy'
unset y2tics
unset y2label
set ytics mirror
set xtics autofreq
set autoscale x
unset logscale y
set autoscale y
set output 'synthetic-sweep.png'
set title 'Algorithm 2: errors against β (bars: the least and largest 2ε_v − ε_{tr} of the trials)'
set xlabel 'β'
set ylabel 'error (%)'
set yrange [0:18.8472]
set xrange [0.148:1.452]
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 'synthetic-sweep.dat' using 1:2 with linespoints pt 7 lw 2 title 'ε_{tr}', '' using 1:3 with linespoints pt 5 lw 2 title 'ε_v', '' using 1:4:5:6 with yerrorlines pt 9 lw 2 title '2ε_v − ε_{tr}', '' using ($8 > 0 ? $1 : 1/0):4 with points pt 6 ps 4 lw 3 lc rgb 'black' title 'pick β = 0.8'
set autoscale y
set autoscale x
set output 'synthetic-kappa-epochs.png'
set title 'κ(Ŵ^{(i)}) of every layer while the last training ran'
set logscale y
set yrange [1:316.228]
set xlabel 'epoch'
set ylabel 'κ'
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 10 with lines dashtype 2 lw 3 lc rgb 'black' title 'τ = 10', \
  for [i=1:5] 'synthetic-kappa-epochs.dat' using 1:(column(1+i)) with linespoints pt 7 ps 0.5 lw 3 lt i title sprintf('layer %d', i)
unset logscale y
set autoscale y
set output 'synthetic-curve.png'
set title 'The last training: accuracy per epoch (the grey bar: the epoch kept)'
set xlabel 'epoch'
set ylabel 'accuracy (%)'
set yrange [98:100]
set key inside bottom right opaque box
set arrow 1 from 12, graph 0 to 12, graph 1 nohead lw 12 lc rgb '#cccccc' back
plot 'synthetic-curve.dat' using 1:2 with linespoints pt 7 ps 0.6 lw 3 title 'training', '' using 1:3 with linespoints pt 5 lw 3 title 'validation'
unset arrow 1
set autoscale y
set terminal pdfcairo size 10in,5.625in enhanced font 'DejaVu Sans,14' linewidth 2
set output 'synthetic-spectra.pdf'
set title 'σ_j / σ_1 of every layer; the line is 1/τ = 0.1 (τ = 10)'
set logscale y
set yrange [0.01:3.16228]
set xlabel 'j (largest first)'
set ylabel 'σ_j / σ_1'
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 0.1 with lines dashtype 2 lw 3 lc rgb 'black' title '1/τ', \
  for [i=0:4] 'synthetic-spectra.dat' index i using 1:($2 > 0 ? $2 : 1/0) with linespoints pt 7 ps 0.8 lw 3 lt i+1 title sprintf('layer %d', i+1)
unset offsets
set output 'synthetic-alg1-kappa.pdf'
set title 'κ(Ŵ^{(i)}) of every layer per Algorithm-1 iteration'
set logscale y
set yrange [0.1:10000]
set xrange [-0.3:7.3]
set xlabel 'iteration'
set ylabel 'κ'
set xtics 1
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 'synthetic-alg1.dat' using ($1 - 0.5):2:(1):(0) with vectors nohead dashtype 2 lw 3 lc rgb 'black' title 'τ of the iteration', \
  for [i=1:5] '' using 1:(column(6+i)) with linespoints pt 7 lw 3 lt i title sprintf('layer %d', i)
unset logscale y
set autoscale y
set output 'synthetic-alg1-size.pdf'
set title 'Σ n_i and the test accuracy per Algorithm-1 iteration'
set ylabel 'Σ n_i'
set y2label 'test accuracy (%)'
set y2tics
set ytics nomirror
set y2range [95:100]
set key inside bottom left opaque box
plot 'synthetic-alg1.dat' using 1:4 with linespoints pt 7 lw 2 title 'Σ n_i', '' using 1:5 axes x1y2 with linespoints pt 5 lw 2 title 'test accuracy'
unset y2tics
unset y2label
set ytics mirror
set xtics autofreq
set autoscale x
unset logscale y
set autoscale y
set output 'synthetic-sweep.pdf'
set title 'Algorithm 2: errors against β (bars: the least and largest 2ε_v − ε_{tr} of the trials)'
set xlabel 'β'
set ylabel 'error (%)'
set yrange [0:18.8472]
set xrange [0.148:1.452]
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 'synthetic-sweep.dat' using 1:2 with linespoints pt 7 lw 2 title 'ε_{tr}', '' using 1:3 with linespoints pt 5 lw 2 title 'ε_v', '' using 1:4:5:6 with yerrorlines pt 9 lw 2 title '2ε_v − ε_{tr}', '' using ($8 > 0 ? $1 : 1/0):4 with points pt 6 ps 4 lw 3 lc rgb 'black' title 'pick β = 0.8'
set autoscale y
set autoscale x
set output 'synthetic-kappa-epochs.pdf'
set title 'κ(Ŵ^{(i)}) of every layer while the last training ran'
set logscale y
set yrange [1:316.228]
set xlabel 'epoch'
set ylabel 'κ'
set key inside top center horizontal maxcols 5 opaque box samplen 2
plot 10 with lines dashtype 2 lw 3 lc rgb 'black' title 'τ = 10', \
  for [i=1:5] 'synthetic-kappa-epochs.dat' using 1:(column(1+i)) with linespoints pt 7 ps 0.5 lw 3 lt i title sprintf('layer %d', i)
unset logscale y
set autoscale y
set output 'synthetic-curve.pdf'
set title 'The last training: accuracy per epoch (the grey bar: the epoch kept)'
set xlabel 'epoch'
set ylabel 'accuracy (%)'
set yrange [98:100]
set key inside bottom right opaque box
set arrow 1 from 12, graph 0 to 12, graph 1 nohead lw 12 lc rgb '#cccccc' back
plot 'synthetic-curve.dat' using 1:2 with linespoints pt 7 ps 0.6 lw 3 title 'training', '' using 1:3 with linespoints pt 5 lw 3 title 'validation'
unset arrow 1
set autoscale y
unset output
