from napledger.cli import main

main()
