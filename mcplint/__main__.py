from mcplint.cli import main

main()
