# paper_data.sh - tiny MNIST and Adult data sets in the files' own formats,
# for the tests of `condnet paper`. Source it; needs perl.

# paper_data DIR: writes DIR/mnist (MNIST-format idx files of random
# images) and DIR/adult (Adult-format rows).
paper_data() {
	# Tiny MNIST: 200 training and 100 test images of 28x28, labels 0..9.
	mkdir -p "$1/mnist" "$1/adult"
	perl -e '
	  srand(7);
	  sub images { my ($f, $n) = @_; open my $o, ">:raw", $f or die;
	    print $o pack("NNNN", 0x803, $n, 28, 28);
	    for my $i (0..$n-1) { my $c = $i % 10;
	      print $o pack("C*", map { ($_ % 28 == $c * 2 || int($_ / 28) == $c * 2) ? 200 + int(rand(55)) : int(rand(40)) } 0..783) } }
	  sub labels { my ($f, $n) = @_; open my $o, ">:raw", $f or die;
	    print $o pack("NN", 0x801, $n), pack("C*", map { $_ % 10 } 0..$n-1) }
	  my $d = shift;
	  images("$d/train-images-idx3-ubyte", 200); labels("$d/train-labels-idx1-ubyte", 200);
	  images("$d/t10k-images-idx3-ubyte", 100);  labels("$d/t10k-labels-idx1-ubyte", 100);
	' "$1/mnist"

	# Tiny Adult in the UCI layout (the test file has the odd first line and "." labels).
	perl -e '
	  srand(3);
	  my @wc = ("Private", "Self-emp-not-inc", "State-gov", "?");
	  my @ed = (["Bachelors", 13], ["HS-grad", 9], ["Masters", 14], ["Some-college", 10]);
	  my @ms = ("Married-civ-spouse", "Never-married", "Divorced");
	  my @oc = ("Exec-managerial", "Craft-repair", "Sales", "?");
	  my @re = ("Husband", "Not-in-family", "Own-child");
	  my @ra = ("White", "Black");
	  my @co = ("United-States", "Mexico", "?");
	  sub row { my $hi = shift; my $e = $ed[int rand @ed];
	    join(", ", 20 + int(rand 50), $wc[int rand @wc], 50000 + int(rand 300000), $e->[0], $e->[1],
	      $ms[int rand @ms], $oc[int rand @oc], $re[int rand @re], $ra[int rand @ra],
	      (rand() < 0.5 ? "Male" : "Female"), ($hi ? int(rand 20000) : 0), 0, 30 + int(rand 30),
	      $co[int rand @co], ($hi ? ">50K" : "<=50K")) }
	  my $d = shift;
	  open my $t, ">", "$d/adult.data" or die; print $t row($_ % 2), "\n" for 0..299; print $t "\n";
	  open my $s, ">", "$d/adult.test" or die; print $s "|1x3 Cross validator\n";
	  print $s row($_ % 2), ".\n" for 0..99; print $s "\n";
	' "$1/adult"
}
