from mcplint.entry import main

main()
