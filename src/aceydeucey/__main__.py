from aceydeucey.cli.app import main

main()
