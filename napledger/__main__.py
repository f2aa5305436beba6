from napledger.start import main

main()
