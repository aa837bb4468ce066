from optlint.launch import run

run()
