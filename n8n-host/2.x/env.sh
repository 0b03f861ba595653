# Settings n8n_env (n8n-host/lib.sh) adds for the 2.x line only.
# mcp-registry fetches a server list from the internet at start. n8n 1.x has no such module and
# fails every command when it is named here ("Unknown module"), hence a file per line.
export N8N_DISABLED_MODULES=mcp-registry
