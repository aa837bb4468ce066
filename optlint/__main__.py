from optlint.cli import main

main()
